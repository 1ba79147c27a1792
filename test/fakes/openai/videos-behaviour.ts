import type { OpenAiBehaviour } from './openai-behaviour.js';

/** Where a status poll can move a fake video; `vanished` deletes it, so it answers 404 from then on. */
export type VideoStep = 'queued' | 'in_progress' | 'completed' | 'failed' | 'vanished';

/** The `error` of a failed video (`VideoResource.error`, upstreams.md §2.9). */
export interface VideoError {
  code: string;
  message: string;
}

/** How a video made by the next create or remix request goes on. */
export interface VideoScript {
  /** The state each `GET /v1/videos/{id}` moves the video to, in order; once they run out the video stays where it is. Default `['in_progress', 'completed']`. */
  steps?: VideoStep[];
  /** The error a `failed` step reports. Default {@link defaultVideoError}. */
  error?: VideoError;
}

/** A behaviour of the fake OpenAI upstream that may also script the video the request makes. */
export interface VideoBehaviour extends OpenAiBehaviour {
  video?: VideoScript;
}

/** The fake's error for a failed video when the script names none (not recorded; the fixture's only code is `moderation_blocked`). */
export const defaultVideoError: VideoError = { code: 'video_generation_failed', message: 'Video generation failed. Please try again.' };

/** The steps of a video nobody scripted: one poll in progress, then completed. */
export const defaultVideoSteps: readonly VideoStep[] = ['in_progress', 'completed'];

/** Behaviours for the next create or remix request, for `fake.next(...)`. */
export const videoBehaviours = {
  /** The video walks through `steps`, one per poll. */
  steps: (...steps: VideoStep[]): VideoBehaviour => ({ video: { steps } }),
  /** The video fails on the first poll with `error` (default {@link defaultVideoError}). */
  fails: (error: VideoError = defaultVideoError): VideoBehaviour => ({ video: { steps: ['in_progress', 'failed'], error } }),
  /** The video fails on the second poll, blocked by moderation, as the fixture's failed object (openai-videos-objects.json). */
  moderationBlocked: (message = 'Your request was blocked by our moderation system.'): VideoBehaviour => ({
    video: { steps: ['in_progress', 'failed'], error: { code: 'moderation_blocked', message } },
  }),
  /** The upstream forgets the video on the first poll: 404 from then on. */
  vanishes: (): VideoBehaviour => ({ video: { steps: ['vanished'] } }),
};
