import { emptyTaskResult, failedTask, taskProgress, videoUsage, type TaskProgress, type Usage } from '../../core/index.js';
import { dsxFailureStatus } from './dsx-error-codes.js';
import type { DsxTask } from './dsx-schemas.js';

/** A task's progress, with `details.last_frame_url` for the task view when the upstream returned a last frame. */
export type DsxTaskProgress = TaskProgress;

/**
 * The usage of a finished task as Ark reports it: its completion tokens, and the seconds and
 * resolution the task object echoes (`duration`, or `frames` / `framespersecond`;
 * `resolution`). Undefined unless all are there, so core bills the submit's estimate rather
 * than a usage that prices to nothing under one of the two kinds of price.
 */
export function dsxTaskUsage(task: DsxTask): Usage | undefined {
  const tokens = task.usage?.completion_tokens;
  const seconds = typeof task.frames === 'number' && task.frames > 0 ? task.frames / (task.framespersecond ?? 24) : task.duration;
  const resolution = task.resolution ?? undefined;
  if (typeof tokens !== 'number' || tokens < 0 || typeof seconds !== 'number' || seconds <= 0 || resolution === undefined) return undefined;
  return { ...videoUsage(seconds, resolution, 'upstream'), outputTokens: tokens, outputModalities: { video: tokens } };
}

/**
 * Maps a task object (upstreams.md §3.3) onto core's states: `queued` → queued, `running`
 * → in_progress, `succeeded` → succeeded with `content.video_url` (a success without one
 * is a failure: there is nothing to deliver), `failed` → failed with Ark's code name as
 * `error.type` and a numeric `error.code` (400 for a moderation failure), `cancelled` and
 * `expired` → failed. States Ark may add later read as in progress. A success carries the
 * usage Ark reports (see {@link dsxTaskUsage}), so a token price and a per-second price
 * both bill what was made.
 */
export function fromDsxTask(task: DsxTask): DsxTaskProgress {
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
