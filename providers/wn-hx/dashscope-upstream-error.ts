import { describeUpstreamError, errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer, readUpstreamJsonAs } from '../../core/index.js';
import { dashScopeErrorBodySchema, type DashScopeErrorBody } from './dashscope-task-schemas.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';

/** Codes DashScope's moderation answers (upstreams.md §4.1: DataInspectionFailed; its error table: IPInfringementSuspect). */
const moderationCodes = new Set(['DataInspectionFailed', 'IPInfringementSuspect', 'data_inspection_failed']);

/** Whether a code means DashScope's moderation refused the input or the output. */
export const isDashScopeModerationCode = (code: string | null | undefined): boolean => typeof code === 'string' && moderationCodes.has(code);

/**
 * The HTTP status a DashScope error code stands for (the code table of upstreams.md §4.1),
 * for codes that arrive without one: a failed task's `output.code`, or an error body sent
 * with HTTP 200. An account in arrears is the channel's trouble, like a refused key.
 */
export function dashScopeCodeStatus(code: string): number {
  if (code === 'InvalidApiKey') return 401;
  if (code === 'Arrearage' || code.startsWith('AccessDenied') || code.endsWith('.AccessDenied')) return 403;
  if (code === 'ModelNotFound') return 404;
  if (code.startsWith('Throttling')) return 429;
  if (code === 'RequestTimeOut') return 504;
  if (code === 'ModelUnavailable' || code === 'ServiceUnavailable') return 503;
  if (code.startsWith('Invalid') || code.startsWith('BadRequest') || code.startsWith('DataInspection') || code.startsWith('IPInfringement') || code === 'data_inspection_failed') return 400;
  return 500;
}

/** The error body in an upstream answer's text, if it is one. */
export function readDashScopeErrorBody(text: string): DashScopeErrorBody | undefined {
  const body = readUpstreamJsonAs(text, dashScopeErrorBodySchema);
  return (body?.code ?? body?.message) ? body : undefined;
}

/** The upstream's own words for an error: `message (code)`. */
export const describeDashScopeError = (error: { code?: string | null; message?: string | null }): string | undefined => describeUpstreamError(error.message, error.code);

/**
 * The error for a non-2xx answer to a submit. A refusal of the request (400 and the other
 * client statuses) is a 502 with DashScope's code, its message and as `param` the client's
 * name of the field the message names (spec part 2, video errors), not retried: another
 * channel would refuse the same request. The channel's own trouble (401, 403, 404, 408,
 * 429, 5xx, an account in arrears) is judged as `upstreamStatusError` does, so the task goes
 * to another channel before any is accepted.
 */
export function dashScopeSubmitError(status: number, bodyText: string, job: DashScopeVideoJob, retryAfterSeconds?: number): GatewayError {
  const error = readDashScopeErrorBody(bodyText);
  const channelStatus = error?.code === 'Arrearage' ? 403 : status;
  if ([401, 403, 404, 408, 429].includes(channelStatus) || channelStatus >= 500 || channelStatus < 400) {
    return errorForUpstreamStatus(channelStatus, (error === undefined ? undefined : describeDashScopeError(error)) ?? `the upstream answered HTTP ${status}`, retryAfterSeconds);
  }
  const message = error?.message ?? `the upstream answered HTTP ${status}`;
  return new GatewayError(502, error?.code ?? 'upstream_invalid_request', `the upstream refused the task: ${message}`, {
    param: dashScopeUpstreamParam(message, job),
    retryable: false,
  });
}

/** 502 for an answer that is not the DashScope answer expected; `retryable` only where nothing can have been started. */
export function invalidDashScopeAnswer(what: string, retryable: boolean, cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(what, { retryable, cause });
}

/**
 * The client's field a DashScope refusal is about. DashScope's error body has no field of
 * its own (upstreams.md §4.1), so its message is read: a dotted path such as
 * `parameters.duration`, else the first field of the body sent that the message names as a
 * word ("The size is not match ...", fixture dashscope-video-task-lifecycle.json `failed`),
 * given back by the job's client name for it. Undefined when the message names none.
 */
export function dashScopeUpstreamParam(message: string, job: Pick<DashScopeVideoJob, 'input' | 'parameters' | 'clientField'>): string | undefined {
  const dotted = /\b(input|parameters)\.([A-Za-z_]+)/.exec(message);
  if (dotted !== null) return job.clientField(`${dotted[1]}.${dotted[2]}`);
  let first: { at: number; path: string } | undefined;
  for (const [section, fields] of [['input', job.input], ['parameters', job.parameters]] as const) {
    for (const key of Object.keys(fields)) {
      const at = message.search(new RegExp(`\\b${key}\\b`));
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, path: `${section}.${key}` };
    }
  }
  return first === undefined ? undefined : job.clientField(first.path);
}
