import { dashScopeCodeStatus, describeDashScopeError, emptyTaskResult, errorForUpstreamStatus, failedTask, invalidUpstreamAnswer, isDashScopeModerationCode, parseUpstreamAnswer, taskProgress, taskVanished, videoUsage, type TaskProgress, type Usage } from '../../core/index.js';
import { dashScopeTaskAnswerSchema, type DashScopeTaskAnswer } from './dashscope-task-schemas.js';
import type { VideoTier } from './dashscope-video-job.js';

/**
 * What the upstream's usage says the finished task cost: `duration` seconds times
 * `video_count`, at the tier of its `SR` (720 → `720p`). Undefined unless both are readable
 * and the tier is one of `tiers` (those the model makes); the usage reserved at submit is
 * then billed. Numbers may come as strings or floats (upstreams.md §4.1).
 */
export function dashScopeTaskUsage(usage: DashScopeTaskAnswer['usage'], tiers: readonly VideoTier[]): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const duration = Number(usage.duration);
  const tier = `${Number(usage.SR)}p` as VideoTier;
  const count = Number(usage.video_count ?? 1);
  if (!Number.isFinite(duration) || duration <= 0 || !tiers.includes(tier)) return undefined;
  const videos = Number.isInteger(count) && count > 0 ? count : 1;
  return videoUsage(duration * videos, tier, 'upstream');
}

/** A FAILED task's error: the status its code stands for, its message, and the code itself as the type. */
function failure(code: string | null | undefined, message: string | null | undefined): TaskProgress {
  const upstreamCode = code ?? 'InternalError';
  const text = message ?? 'the upstream task failed without a reason';
  return failedTask(dashScopeCodeStatus(upstreamCode), isDashScopeModerationCode(upstreamCode) ? `the upstream's moderation blocked the video: ${text}` : text, upstreamCode);
}

/**
 * Maps a DashScope task answer (upstreams.md §4.1, fixture dashscope-video-task-lifecycle.json)
 * onto core's task states, for every family: PENDING and SUSPENDED are `queued`, RUNNING
 * `in_progress`, SUCCEEDED `succeeded` with `output.video_url` and the usage to bill (at one
 * of `tiers`), FAILED `failed` with the upstream's code and message, CANCELED `failed` (499
 * `Canceled`). UNKNOWN means DashScope does not know the id or the task is older than 24
 * hours: a 404, which core treats as a vanished task (failed and refunded). A status not
 * listed here reads as queued.
 */
export function fromDashScopeTask(body: unknown, tiers: readonly VideoTier[]): TaskProgress {
  const answer = parseUpstreamAnswer(body, dashScopeTaskAnswerSchema, 'a task answer', { retryable: true });
  const output = answer.output ?? undefined;
  const status = output?.task_status ?? undefined;
  if (status === undefined) {
    if (typeof answer.code === 'string') throw errorForUpstreamStatus(dashScopeCodeStatus(answer.code), describeDashScopeError(answer) ?? answer.code);
    throw invalidUpstreamAnswer('a task answer', { retryable: true });
  }
  switch (status) {
    case 'RUNNING':
      return taskProgress('in_progress');
    case 'SUCCEEDED': {
      const url = output?.video_url ?? undefined;
      if (url === undefined || url === '') {
        return emptyTaskResult('the upstream reported success without a video URL');
      }
      const usage = dashScopeTaskUsage(answer.usage, tiers);
      return taskProgress('succeeded', { url, ...(usage === undefined ? {} : { usage }) });
    }
    case 'FAILED':
      return failure(output?.code, output?.message);
    case 'CANCELED':
      return failedTask(499, 'the task was canceled upstream', 'Canceled');
    case 'UNKNOWN':
      throw taskVanished('DashScope answers UNKNOWN: it does not know the task, or the task is older than 24 hours');
    default:
      return taskProgress('queued');
  }
}
