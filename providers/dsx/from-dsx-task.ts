import { z } from 'zod';
import { emptyTaskResult, failedTask, taskProgress, videoUsage, type TaskProgress } from '../../core/index.js';
import { arkErrorDetailSchema, isArkSensitiveContent } from '../shared/ark/ark-api-errors.js';

/**
 * A task object of `GET /contents/generations/tasks/{id}`. Lenient: only what the gateway reads
 * is checked (reference/upstreams.md §3.1, §3.3; fixture ark-seedance-task-succeeded.json).
 */
export const dsxTaskSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  status: z.string(),
  content: z.looseObject({ video_url: z.string().nullish(), last_frame_url: z.string().nullish() }).nullish(),
  usage: z.looseObject({ completion_tokens: z.number().nullish(), total_tokens: z.number().nullish() }).nullish(),
  error: arkErrorDetailSchema.nullish(),
  resolution: z.string().nullish(),
  duration: z.number().nullish(),
  frames: z.number().nullish(),
  framespersecond: z.number().nullish(),
});

export type DsxTask = z.output<typeof dsxTaskSchema>;

/**
 * The numeric `error.code` of a failed task (the task view's code is an integer; Ark's own
 * code name goes in `error.type`): 400 for a moderation failure or a refused parameter, 429
 * for a quota or rate limit, 504 for a timeout, 500 for anything else (`InternalServiceError`).
 */
function dsxFailureStatus(code: string | null | undefined): number {
  if (typeof code !== 'string' || code === '') return 500;
  if (isArkSensitiveContent(code) || /^(InvalidParameter|MissingParameter|InvalidArgument)/.test(code)) return 400;
  if (/RateLimit|QuotaExceeded|TooManyRequests/.test(code)) return 429;
  if (/Timeout/i.test(code)) return 504;
  return 500;
}

/**
 * The usage of a finished task as Ark reports it: its completion tokens, and the seconds and
 * resolution the task echoes. Undefined unless all are there, so core bills the submit's
 * estimate rather than a usage that prices to nothing under one of the two kinds of price.
 */
function dsxTaskUsage(task: DsxTask): TaskProgress['usage'] {
  const tokens = task.usage?.completion_tokens;
  const seconds = typeof task.frames === 'number' && task.frames > 0 ? task.frames / (task.framespersecond ?? 24) : task.duration;
  const resolution = task.resolution ?? undefined;
  if (typeof tokens !== 'number' || tokens < 0 || typeof seconds !== 'number' || seconds <= 0 || resolution === undefined) return undefined;
  return { ...videoUsage(seconds, resolution, 'upstream'), outputTokens: tokens, outputModalities: { video: tokens } };
}

/**
 * Maps a task object (upstreams.md §3.3) onto core's states. A success without
 * `content.video_url` is a failure (there is nothing to deliver); one with a last frame shows
 * it as `details.last_frame_url`. States Ark may add later read as in progress.
 */
export function fromDsxTask(task: DsxTask): TaskProgress {
  switch (task.status) {
    case 'queued':
    case 'pending':
      return taskProgress('queued');
    case 'succeeded': {
      const url = task.content?.video_url ?? '';
      if (url === '') return emptyTaskResult('the upstream reported success without a video URL');
      const usage = dsxTaskUsage(task);
      const lastFrame = task.content?.last_frame_url ?? '';
      return taskProgress('succeeded', { url, ...(usage === undefined ? {} : { usage }), ...(lastFrame === '' ? {} : { details: { last_frame_url: lastFrame } }) });
    }
    case 'failed':
      return failedTask(dsxFailureStatus(task.error?.code), task.error?.message ?? 'the upstream task failed', task.error?.code ?? 'failed');
    case 'cancelled':
      return failedTask(409, 'the upstream task was cancelled before it ran', 'cancelled');
    case 'expired':
      return failedTask(504, 'the upstream task expired before it ran (execution_expires_after passed)', 'expired');
    default:
      return taskProgress('in_progress');
  }
}

/** The moderation record of a task (`GET /v1/video/generations/moderation-result/{task_id}`). */
export interface DsxModerationRecord {
  /** `pending` while the task runs, `passed` when it succeeded, `blocked` when the safety filter stopped it, `not_flagged` when it ended otherwise. */
  result: 'pending' | 'passed' | 'blocked' | 'not_flagged';
  /** True exactly when `result` is `blocked`. */
  flagged: boolean;
  /** The upstream task's own status. */
  task_status: string;
  /** What was flagged, read from the code: `input_text`, `input_image`, `output_video`... */
  target?: string;
  /** Ark's code and message for a task that failed. */
  code?: string;
  message?: string;
}

/**
 * Builds the moderation record from the task itself: upstreams.md has no moderation
 * endpoint for Seedance (§3.3–§3.5), and Ark reports a safety-filter stop as a failed task
 * whose `error.code` is a `...SensitiveContentDetected` code (§3.1, §3.3).
 */
export function dsxModerationRecord(task: DsxTask): DsxModerationRecord {
  const status = task.status;
  if (status === 'succeeded') return { result: 'passed', flagged: false, task_status: status };
  if (status !== 'failed' && status !== 'cancelled' && status !== 'expired') return { result: 'pending', flagged: false, task_status: status };
  const code = task.error?.code ?? undefined;
  const message = task.error?.message ?? undefined;
  const detail = { ...(code === undefined ? {} : { code }), ...(message === undefined ? {} : { message }) };
  if (!isArkSensitiveContent(code)) return { result: 'not_flagged', flagged: false, task_status: status, ...detail };
  const target = /^(Input|Output)(Text|Image|Video|Audio)SensitiveContentDetected/.exec(code ?? '');
  const flagged = target === null ? {} : { target: `${target[1]!.toLowerCase()}_${target[2]!.toLowerCase()}` };
  return { result: 'blocked', flagged: true, task_status: status, ...flagged, ...detail };
}
