import { z } from 'zod';
import type { TaskProgress } from '../../core/index.js';
import { ownEntry, parseUpstreamJson } from '../../core/kit/index.js';
import { invalidSrResponse } from './sr-error.js';
import { srUsage } from './sr-usage.js';

// A video object (`VideoResource`, upstreams.md §2.9), lenient on purpose: only the fields the
// gateway reads, each nullable, anything else tolerated (the fixture openai-videos-objects.json
// shows create answers with fewer keys than the schema-complete objects, and an extra `quality`).
const srVideoSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().nullish(),
  progress: z.number().nullish(),
  seconds: z.union([z.string(), z.number()]).nullish(),
  size: z.string().nullish(),
  remixed_from_video_id: z.string().nullish(),
  error: z.looseObject({ code: z.union([z.string(), z.number()]).nullish(), message: z.string().nullish() }).nullish(),
});

export type SrVideo = z.output<typeof srVideoSchema>;

/** Parses an answer that must be a video object; a 502 otherwise, `retryable` where asking another channel is safe. */
export function readSrVideo(text: string, retryable: boolean): SrVideo {
  let json: unknown;
  try {
    json = parseUpstreamJson(text);
  } catch (error) {
    throw invalidSrResponse('the body is not JSON', retryable, error);
  }
  const parsed = srVideoSchema.safeParse(json);
  if (!parsed.success) throw invalidSrResponse('it has no id', retryable, parsed.error);
  return parsed.data;
}

/** A video's `seconds` (a string upstream, `"8"`) as a number of seconds, when it is one. */
export function srSecondsOf(video: SrVideo): number | undefined {
  const seconds = Number(video.seconds ?? Number.NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

// The upstream's states are queued → in_progress → completed | failed (upstreams.md §2.9);
// `pending`, `processing` and `cancelled` are read too, as other OpenAI-format video servers
// answer them (reference-gateway.md §9.4).
const statuses: Record<string, TaskProgress['status']> = {
  queued: 'queued',
  pending: 'queued',
  in_progress: 'in_progress',
  processing: 'in_progress',
  completed: 'succeeded',
  failed: 'failed',
  cancelled: 'failed',
};

// A moderation refusal is the client's to fix (the prompt or the image), so it is a 400;
// every other failure is the upstream's (500). The upstream's code name goes in `type`.
const moderationCodes = new Set(['moderation_blocked', 'content_policy_violation']);

function failureOf(video: SrVideo): NonNullable<TaskProgress['error']> {
  const code = video.error?.code;
  const name = typeof code === 'string' && code !== '' ? code : video.status === 'cancelled' ? 'cancelled' : 'video_generation_failed';
  const moderated = moderationCodes.has(name);
  const message =
    video.error?.message !== undefined && video.error.message !== null && video.error.message !== ''
      ? video.error.message
      : moderated
        ? "the upstream's moderation blocked the video; change the prompt or the reference image"
        : `the upstream reported that the video ${video.status === 'cancelled' ? 'was cancelled' : 'failed'} without a reason`;
  return { code: typeof code === 'number' ? code : moderated ? 400 : 500, message, type: name };
}

const percent = (progress: number | null | undefined): number | undefined =>
  progress === undefined || progress === null || !Number.isFinite(progress) ? undefined : Math.min(100, Math.max(0, Math.round(progress)));

/**
 * A video object as core's task progress, with the usage the upstream reports for a finished
 * one (what is charged) and no URL: the video needs the channel's key (`video.content`). An
 * unknown status is a 502, so core leaves the task as it was and asks again later.
 */
export function toSrTaskProgress(video: SrVideo): TaskProgress {
  const status = ownEntry(statuses, video.status ?? '');
  if (status === undefined) throw invalidSrResponse(`unknown status "${video.status ?? ''}"`, false);
  if (status === 'failed') return { kind: 'task-progress', status, progress: percent(video.progress), error: failureOf(video) };
  if (status === 'succeeded') {
    const seconds = srSecondsOf(video);
    // Without both numbers the usage would misprice, so core bills what the submission reserved.
    const reported = seconds !== undefined && typeof video.size === 'string' && video.size !== '';
    return { kind: 'task-progress', status, progress: 100, ...(reported ? { usage: srUsage(seconds, video.size ?? undefined, 'upstream') } : {}) };
  }
  return { kind: 'task-progress', status, progress: percent(video.progress) ?? 0 };
}
