import { z } from 'zod';
import { emptyTaskResult, failedTask, taskProgress, taskVanished, videoUsage, type TaskProgress, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer, parseUpstreamAnswer } from '../../core/kit/index.js';
import { dashScopeCodeStatus, dashScopeError, isDashScopeModerationCode } from '../shared/dashscope/dashscope-api-errors.js';
import type { VideoTier } from './dashscope-video-family.js';

// Lenient on purpose: DashScope's task bodies vary by model (upstreams.md §4.1: usage numbers
// may come as strings, durations as floats), and only these fields are read.
const numberLike = z.union([z.number(), z.string()]).nullish();

/** A task answer of `GET /api/v1/tasks/{task_id}` (fixture dashscope-video-task-lifecycle.json). */
const taskAnswerSchema = z.looseObject({
  output: z
    .looseObject({
      task_id: z.string().nullish(),
      task_status: z.string().nullish(),
      video_url: z.string().nullish(),
      code: z.string().nullish(),
      message: z.string().nullish(),
    })
    .nullish(),
  usage: z.looseObject({ duration: numberLike, SR: numberLike, video_count: numberLike }).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/**
 * What the upstream's usage says the finished task cost: `duration` seconds times
 * `video_count`, at the tier of its `SR` (720 → `720p`). Undefined unless both are readable
 * and the tier is one of `tiers` (those the model makes); the usage reserved at submit is
 * then billed.
 */
function taskUsage(usage: z.output<typeof taskAnswerSchema>['usage'], tiers: readonly VideoTier[]): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const duration = Number(usage.duration);
  const tier = `${Number(usage.SR)}p` as VideoTier;
  const count = Number(usage.video_count ?? 1);
  if (!Number.isFinite(duration) || duration <= 0 || !tiers.includes(tier)) return undefined;
  const videos = Number.isInteger(count) && count > 0 ? count : 1;
  return videoUsage(duration * videos, tier, 'upstream');
}

/**
 * Maps a DashScope task answer (upstreams.md §4.1, fixture dashscope-video-task-lifecycle.json)
 * onto core's task states, for every family: PENDING and SUSPENDED are `queued`, RUNNING
 * `in_progress`, SUCCEEDED `succeeded` with `output.video_url` and the usage to bill (at one
 * of `tiers`), FAILED `failed` with the upstream's code as the type, the status it stands for
 * and its message, CANCELED `failed` (499 `Canceled`). UNKNOWN means DashScope does not know
 * the id or the task is older than 24 hours: a 404, which core treats as a vanished task
 * (failed and refunded). A status not listed here reads as queued.
 */
export function fromDashScopeTask(body: unknown, tiers: readonly VideoTier[]): TaskProgress {
  const answer = parseUpstreamAnswer(body, taskAnswerSchema, 'a task answer', { retryable: true });
  const output = answer.output ?? undefined;
  switch (output?.task_status ?? undefined) {
    case undefined:
      if (typeof answer.code === 'string') throw dashScopeError(dashScopeCodeStatus(answer.code), answer);
      throw invalidUpstreamAnswer('a task answer', { retryable: true });
    case 'RUNNING':
      return taskProgress('in_progress');
    case 'SUCCEEDED': {
      const url = output?.video_url ?? undefined;
      if (url === undefined || url === '') return emptyTaskResult('the upstream reported success without a video URL');
      const usage = taskUsage(answer.usage, tiers);
      return taskProgress('succeeded', { url, ...(usage === undefined ? {} : { usage }) });
    }
    case 'FAILED': {
      const code = output?.code ?? 'InternalError';
      const text = output?.message ?? 'the upstream task failed without a reason';
      return failedTask(dashScopeCodeStatus(code), isDashScopeModerationCode(code) ? `the upstream's moderation blocked the video: ${text}` : text, code);
    }
    case 'CANCELED':
      return failedTask(499, 'the task was canceled upstream', 'Canceled');
    case 'UNKNOWN':
      throw taskVanished('DashScope answers UNKNOWN: it does not know the task, or the task is older than 24 hours');
    default:
      return taskProgress('queued');
  }
}
