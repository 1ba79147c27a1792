import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import type { ArkBehaviour, ArkTaskOutcome } from './ark-behaviour.js';
import type { GeneratedImages } from './generated-images.js';
import { sampleVideo } from './sample-video.js';
import type { VideoTaskPlan } from './video-task-request-check.js';

/** A task state as Ark names it (upstreams.md §3.3). */
export type ArkTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';

/** One task the fake holds. */
export interface FakeArkTask {
  /** `cgt-<yyyymmddhhmmss>-<5 characters>`. */
  id: string;
  plan: VideoTaskPlan;
  /** The states its GETs walk through, the last one repeated. */
  states: ArkTaskStatus[];
  /** How many GETs it has answered. */
  polls: number;
  /** Forgotten tasks answer 404, as if the upstream had lost them. */
  forgotten: boolean;
  error?: { code: string; message: string };
  /** `usage.completion_tokens` on success; null leaves `usage` out. */
  tokens: number | null;
  videoUrl: string;
  lastFrameUrl?: string;
  /** Unix seconds. */
  createdAt: number;
  updatedAt: number;
}

/** Where the fake serves its videos, like Ark's TOS bucket host (upstreams.md §3.3: pre-signed, no key needed). */
export const generatedVideosPath = '/ark-content-generation-video/';

const lifecycles: Record<Exclude<ArkTaskOutcome, 'vanish'>, ArkTaskStatus[]> = {
  succeeded: ['queued', 'running', 'succeeded'],
  failed: ['queued', 'running', 'failed'],
  moderation: ['queued', 'running', 'failed'],
  cancelled: ['queued', 'cancelled'],
  expired: ['queued', 'expired'],
};

const defaultErrors = {
  failed: { code: 'InternalServiceError', message: 'The service encountered an unexpected internal error.' },
  moderation: { code: 'OutputVideoSensitiveContentDetected', message: 'The request failed because the output video may contain sensitive information.' },
};

// Pixels of a 16:9 frame per resolution; Seedance keeps about the same area at every ratio.
const pixels: Record<string, number> = { '480p': 864 * 480, '720p': 1280 * 720, '1080p': 1920 * 1080 };

/** Ark's completion tokens: width × height × frames / 1024 (fixture ark-seedance-task-succeeded.json: 720p, 5 s, 121 frames → 108900). */
export function arkVideoTokens(resolution: string, duration: number | undefined, frames: number | undefined, framesPerSecond = 24): number {
  const frameCount = frames ?? (duration ?? 5) * framesPerSecond + 1;
  return Math.ceil(((pixels[resolution] ?? pixels['720p']!) * frameCount) / 1024);
}

const stamp = (date: Date): string => date.toISOString().replace(/\D/g, '').slice(0, 14);
const shortId = (): string => Array.from(randomBytes(5), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('');

/** The video tasks the fake has created, their lifecycles, and the videos it serves. */
export class ArkVideoTasks {
  readonly #tasks = new Map<string, FakeArkTask>();

  /** Every task, by id. */
  get all(): ReadonlyMap<string, FakeArkTask> {
    return this.#tasks;
  }

  /** Creates a task for a checked request; the create's behaviour decides how it ends. */
  create(plan: VideoTaskPlan, behaviour: ArkBehaviour, origin: string, images: GeneratedImages): FakeArkTask {
    const now = new Date();
    const id = `cgt-${stamp(now)}-${shortId()}`;
    const outcome = behaviour.taskOutcome ?? 'succeeded';
    const query = `X-Tos-Algorithm=TOS4-HMAC-SHA256&X-Tos-Expires=86400&X-Tos-Signature=${randomBytes(16).toString('hex')}`;
    const task: FakeArkTask = {
      id,
      plan,
      states: outcome === 'vanish' ? ['queued'] : lifecycles[outcome],
      polls: 0,
      forgotten: outcome === 'vanish',
      error: behaviour.taskError ?? (outcome === 'failed' ? defaultErrors.failed : outcome === 'moderation' ? defaultErrors.moderation : undefined),
      tokens: behaviour.taskTokens === undefined ? arkVideoTokens(plan.resolution, plan.duration, plan.frames, plan.framesPerSecond) : behaviour.taskTokens,
      videoUrl: behaviour.taskVideoUrl ?? `${origin}${generatedVideosPath}${id}.mp4?${query}`,
      lastFrameUrl: plan.returnLastFrame ? images.add(origin, plan.model) : undefined,
      createdAt: Math.floor(now.getTime() / 1000),
      updatedAt: Math.floor(now.getTime() / 1000),
    };
    this.#tasks.set(id, task);
    return task;
  }

  /** The task's object as a GET answers it now, then one step on; undefined for an unknown or forgotten task. */
  poll(id: string): Record<string, unknown> | undefined {
    const task = this.#tasks.get(id);
    if (task === undefined || task.forgotten) return undefined;
    const status = task.states[Math.min(task.polls, task.states.length - 1)]!;
    if (task.polls > 0 && task.polls < task.states.length) task.updatedAt = Math.floor(Date.now() / 1000);
    task.polls += 1;
    return taskObject(task, status);
  }

  /** Makes the upstream forget a task: its GETs answer 404 from now on. */
  forget(id: string): void {
    const task = this.#tasks.get(id);
    if (task !== undefined) task.forgotten = true;
  }

  /** True for a path under {@link generatedVideosPath}. */
  static isVideoPath(path: string): boolean {
    return path.startsWith(generatedVideosPath);
  }

  /** The answer to a GET of a video path: the task's mp4 once it succeeded, else 404 like a missing object. */
  serve(path: string): PiecewiseAnswer {
    const id = decodeURIComponent(path.slice(generatedVideosPath.length)).replace(/\.mp4$/, '');
    const task = this.#tasks.get(id);
    if (task === undefined || !task.states.slice(0, task.polls).includes('succeeded')) {
      const text = 'NoSuchKey: The specified key does not exist.';
      return { status: 404, headers: { 'content-type': 'text/plain', 'content-length': String(text.length) }, pieces: [text], streamed: false };
    }
    const bytes = sampleVideo(task.id);
    return { status: 200, headers: { 'content-type': 'video/mp4', 'content-length': String(bytes.length) }, pieces: [bytes], streamed: false };
  }
}

/** A task object with the keys of fixture ark-seedance-task-succeeded.json, in its order; `content` and `usage` only on success, `error` only on failure. */
function taskObject(task: FakeArkTask, status: ArkTaskStatus): Record<string, unknown> {
  const { plan } = task;
  return {
    id: task.id,
    model: plan.model,
    status,
    ...(status === 'succeeded' ? { content: { video_url: task.videoUrl, ...(task.lastFrameUrl === undefined ? {} : { last_frame_url: task.lastFrameUrl }) } } : {}),
    ...(status === 'failed' && task.error !== undefined ? { error: task.error } : {}),
    ...(status === 'succeeded' && task.tokens !== null ? { usage: { completion_tokens: task.tokens, total_tokens: task.tokens } } : {}),
    created_at: task.createdAt,
    updated_at: task.updatedAt,
    seed: plan.seed,
    resolution: plan.resolution,
    ratio: plan.ratio,
    ...(plan.frames === undefined ? { duration: plan.duration } : { frames: plan.frames }),
    framespersecond: plan.framesPerSecond,
    service_tier: 'default',
    execution_expires_after: 172800,
    // 1.5 pro and 2.x make sound unless told not to (upstreams.md §3.4); 1.0 models are silent.
    generate_audio: plan.generateAudio ?? !/1-0/.test(plan.model),
    draft: false,
    priority: 0,
  };
}
