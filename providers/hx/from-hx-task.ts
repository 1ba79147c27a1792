import { errorForUpstreamStatus, GatewayError, type TaskProgress, type Usage } from '../../core/index.js';
import { hxTiers, type HxTier } from './hx-model-mode.js';
import { describeHxError, hxCodeStatus, invalidHxAnswer, isHxModerationCode } from './hx-upstream-error.js';
import { hxTaskAnswerSchema, type HxTaskAnswer } from './hx-task-schemas.js';

const progress = (status: TaskProgress['status'], fields: Partial<TaskProgress> = {}): TaskProgress => ({ kind: 'task-progress', status, ...fields });

/**
 * What the upstream's usage says the finished task cost: `duration` seconds times
 * `video_count`, at the tier of its `SR` (1080 → `1080p`). Undefined unless both are
 * readable and the tier is 720p or 1080p; the usage reserved at submit is then billed.
 */
export function hxTaskUsage(usage: HxTaskAnswer['usage']): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const duration = Number(usage.duration);
  const tier = `${Number(usage.SR)}p` as HxTier;
  const count = Number(usage.video_count ?? 1);
  if (!Number.isFinite(duration) || duration <= 0 || !hxTiers.includes(tier)) return undefined;
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: duration * (Number.isInteger(count) && count > 0 ? count : 1), resolution: tier, source: 'upstream' };
}

/**
 * Maps a DashScope task answer (upstreams.md §4.1, §4.4) onto core's task states, as the wn
 * provider does: PENDING and SUSPENDED are `queued`, RUNNING `in_progress`, SUCCEEDED
 * `succeeded` with `output.video_url` and the usage to bill, FAILED `failed` with the
 * upstream's code (as an HTTP-like number and as the type) and message, CANCELED `failed`
 * (499 `Canceled`); UNKNOWN (unknown id, or older than 24 hours) is a 404, which core treats
 * as a vanished task. A status not listed here reads as queued.
 */
export function fromHxTask(body: unknown): TaskProgress {
  const parsed = hxTaskAnswerSchema.safeParse(body);
  if (!parsed.success) throw invalidHxAnswer('a task answer', true, parsed.error);
  const answer = parsed.data;
  const output = answer.output ?? undefined;
  const status = output?.task_status ?? undefined;
  if (status === undefined) {
    if (typeof answer.code === 'string') throw errorForUpstreamStatus(hxCodeStatus(answer.code), describeHxError(answer) ?? answer.code);
    throw invalidHxAnswer('a task answer', true);
  }
  switch (status) {
    case 'RUNNING':
      return progress('in_progress');
    case 'SUCCEEDED': {
      const url = output?.video_url ?? undefined;
      if (url === undefined || url === '') return progress('failed', { error: { code: 502, message: 'the upstream reported success without a video URL', type: 'empty_response' } });
      const usage = hxTaskUsage(answer.usage);
      return progress('succeeded', { url, ...(usage === undefined ? {} : { usage }) });
    }
    case 'FAILED': {
      const code = output?.code ?? 'InternalError';
      const message = output?.message ?? 'the upstream task failed without a reason';
      return progress('failed', { error: { code: hxCodeStatus(code), message: isHxModerationCode(code) ? `the upstream's moderation blocked the video: ${message}` : message, type: code } });
    }
    case 'CANCELED':
      return progress('failed', { error: { code: 499, message: 'the task was canceled upstream', type: 'Canceled' } });
    case 'UNKNOWN':
      throw new GatewayError(404, 'task_vanished', 'DashScope answers UNKNOWN: it does not know the task, or the task is older than 24 hours');
    default:
      return progress('queued');
  }
}
