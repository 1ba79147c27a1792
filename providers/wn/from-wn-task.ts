import { errorForUpstreamStatus, GatewayError, type TaskProgress, type Usage } from '../../core/index.js';
import type { WnTier } from './wn-model-kind.js';
import { describeWnError, invalidWnAnswer, isWnModerationCode, wnCodeStatus } from './wn-upstream-error.js';
import { wnTaskAnswerSchema, type WnTaskAnswer } from './wn-task-schemas.js';

const progress = (status: TaskProgress['status'], fields: Partial<TaskProgress> = {}): TaskProgress => ({ kind: 'task-progress', status, ...fields });

/**
 * What the upstream's usage says the finished task cost: `duration` seconds times
 * `video_count`, at the tier of its `SR` (720 → `720p`). Undefined unless both are readable
 * and the tier is one the model makes; the usage reserved at submit is then billed.
 * Numbers may come as strings or floats (upstreams.md §4.1).
 */
export function wnTaskUsage(usage: WnTaskAnswer['usage'], tiers: readonly WnTier[]): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const duration = Number(usage.duration);
  const tier = `${Number(usage.SR)}p` as WnTier;
  const count = Number(usage.video_count ?? 1);
  if (!Number.isFinite(duration) || duration <= 0 || !tiers.includes(tier)) return undefined;
  const videos = Number.isInteger(count) && count > 0 ? count : 1;
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: duration * videos, resolution: tier, source: 'upstream' };
}

/** A FAILED task's error: the status its code stands for, its message, and the code itself as the type. */
function failure(code: string | null | undefined, message: string | null | undefined): TaskProgress {
  const upstreamCode = code ?? 'InternalError';
  const text = message ?? 'the upstream task failed without a reason';
  return progress('failed', {
    error: { code: wnCodeStatus(upstreamCode), message: isWnModerationCode(upstreamCode) ? `the upstream's moderation blocked the video: ${text}` : text, type: upstreamCode },
  });
}

/**
 * Maps a DashScope task answer (upstreams.md §4.1, fixture dashscope-video-task-lifecycle.json)
 * onto core's task states: PENDING and SUSPENDED are `queued`, RUNNING `in_progress`,
 * SUCCEEDED `succeeded` with `output.video_url` and the usage to bill, FAILED `failed` with
 * the upstream's code and message, CANCELED `failed` (499 `Canceled`). UNKNOWN means
 * DashScope does not know the id or the task is older than 24 hours: a 404, which core
 * treats as a vanished task (failed and refunded). A status not listed here reads as queued.
 */
export function fromWnTask(body: unknown, tiers: readonly WnTier[]): TaskProgress {
  const parsed = wnTaskAnswerSchema.safeParse(body);
  if (!parsed.success) throw invalidWnAnswer('a task answer', true, parsed.error);
  const answer = parsed.data;
  const output = answer.output ?? undefined;
  const status = output?.task_status ?? undefined;
  if (status === undefined) {
    if (typeof answer.code === 'string') throw errorForUpstreamStatus(wnCodeStatus(answer.code), describeWnError(answer) ?? answer.code);
    throw invalidWnAnswer('a task answer', true);
  }
  switch (status) {
    case 'RUNNING':
      return progress('in_progress');
    case 'SUCCEEDED': {
      const url = output?.video_url ?? undefined;
      if (url === undefined || url === '') {
        return progress('failed', { error: { code: 502, message: 'the upstream reported success without a video URL', type: 'empty_response' } });
      }
      const usage = wnTaskUsage(answer.usage, tiers);
      return progress('succeeded', { url, ...(usage === undefined ? {} : { usage }) });
    }
    case 'FAILED':
      return failure(output?.code, output?.message);
    case 'CANCELED':
      return progress('failed', { error: { code: 499, message: 'the task was canceled upstream', type: 'Canceled' } });
    case 'UNKNOWN':
      throw new GatewayError(404, 'task_vanished', 'DashScope answers UNKNOWN: it does not know the task, or the task is older than 24 hours');
    default:
      return progress('queued');
  }
}
