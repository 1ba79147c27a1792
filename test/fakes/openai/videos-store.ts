import { randomBytes } from 'node:crypto';
import { defaultVideoError, defaultVideoSteps, type VideoError, type VideoScript, type VideoStep } from './videos-behaviour.js';

/** One video the fake made, with the script it follows. */
export interface FakeVideo {
  id: string;
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  /** Unix seconds. */
  createdAt: number;
  completedAt: number | null;
  expiresAt: number | null;
  prompt: string;
  size: string;
  seconds: string;
  remixedFromVideoId: string | null;
  error: VideoError | null;
  /** What is left of the script: the next poll takes the first step. */
  steps: VideoStep[];
  /** How many steps the script had, for the progress of `in_progress` steps. */
  stepCount: number;
  scriptedError: VideoError;
}

/** A new video's fields, as the create (or remix) request gave them. */
export type NewVideo = Pick<FakeVideo, 'model' | 'prompt' | 'size' | 'seconds' | 'remixedFromVideoId'>;

/** Downloadable assets last a day (the fixture's completed video expires 86400 s after it was created). */
const lifetimeSeconds = 86_400;

/**
 * The fake's videos by id. A video starts `queued` and each status poll moves it one step of
 * its script (upstreams.md §6: the lifecycle advances on every poll); `vanished` forgets it.
 */
export class FakeVideoStore {
  readonly #videos = new Map<string, FakeVideo>();

  /** Makes a queued video following `script`. */
  create(video: NewVideo, script: VideoScript = {}): FakeVideo {
    const steps = [...(script.steps ?? defaultVideoSteps)];
    const made: FakeVideo = {
      ...video,
      id: `video_${randomBytes(24).toString('hex')}`,
      status: 'queued',
      progress: 0,
      createdAt: Math.floor(Date.now() / 1000),
      completedAt: null,
      expiresAt: null,
      error: null,
      steps,
      stepCount: steps.length,
      scriptedError: script.error ?? defaultVideoError,
    };
    this.#videos.set(made.id, made);
    return made;
  }

  /** The video as it is now, or undefined when the fake never made it or forgot it. */
  get(id: string): FakeVideo | undefined {
    return this.#videos.get(id);
  }

  /** Moves a video one step of its script (a status poll); undefined when it is, or just became, unknown. */
  advance(id: string): FakeVideo | undefined {
    const video = this.#videos.get(id);
    const step = video?.steps.shift();
    if (video === undefined || step === undefined) return video;
    if (step === 'vanished') {
      this.#videos.delete(id);
      return undefined;
    }
    const now = Math.floor(Date.now() / 1000);
    video.status = step;
    // The share of the script walked so far; never 100 before the video is done.
    if (step === 'in_progress') video.progress = Math.min(99, Math.round((100 * (video.stepCount - video.steps.length)) / video.stepCount));
    if (step === 'completed') {
      video.progress = 100;
      video.completedAt = now;
      video.expiresAt = video.createdAt + lifetimeSeconds;
    }
    if (step === 'failed') {
      video.completedAt = now;
      video.error = video.scriptedError;
    }
    return video;
  }
}
