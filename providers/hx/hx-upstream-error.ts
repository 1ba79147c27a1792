import { errorForUpstreamStatus, GatewayError } from '../../core/index.js';
import { hxErrorBodySchema, type HxErrorBody } from './hx-task-schemas.js';
import type { HxVideoJob } from './hx-video-job.js';

// The same reading of DashScope's errors as providers/wn/wn-upstream-error.ts: both
// families run on one upstream, and a provider imports nothing but core.

/** Whether a code means DashScope's moderation refused the input or the output (upstreams.md §4.1). */
export const isHxModerationCode = (code: string | null | undefined): boolean =>
  code === 'DataInspectionFailed' || code === 'IPInfringementSuspect' || code === 'data_inspection_failed';

/** The HTTP status a DashScope error code stands for (upstreams.md §4.1), for codes that arrive without one. */
export function hxCodeStatus(code: string): number {
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
export function readHxErrorBody(text: string): HxErrorBody | undefined {
  try {
    const parsed = hxErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success && (parsed.data.code ?? parsed.data.message) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The upstream's own words for an error: `message (code)`. */
export function describeHxError(error: { code?: string | null; message?: string | null }): string | undefined {
  const message = error.message ?? '';
  const code = error.code ?? '';
  if (message === '') return code === '' ? undefined : code;
  return code === '' ? message : `${message} (${code})`;
}

/**
 * The client's field a DashScope message is about: a dotted `input.x` / `parameters.x`, else
 * the first field of the body sent that the message names as a word, under `metadata.`.
 */
export function hxUpstreamParam(message: string, job: Pick<HxVideoJob, 'input' | 'parameters'>): string | undefined {
  const dotted = /\b(input|parameters)\.([A-Za-z_]+)/.exec(message);
  if (dotted !== null) return `metadata.${dotted[1]}.${dotted[2]}`;
  let first: { at: number; path: string } | undefined;
  for (const [section, fields] of [['input', job.input], ['parameters', job.parameters]] as const) {
    for (const key of Object.keys(fields)) {
      const at = message.search(new RegExp(`\\b${key}\\b`));
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, path: `metadata.${section}.${key}` };
    }
  }
  return first?.path;
}

/**
 * The error for a non-2xx answer to a submit. A refusal of the request is a 502 with
 * DashScope's code, its message and the field it names (spec part 2, video errors), not
 * retried; the channel's own trouble (401, 403, 404, 408, 429, 5xx, an account in arrears)
 * is judged as `upstreamStatusError` does, so the task goes to another channel.
 */
export function hxSubmitError(status: number, bodyText: string, job: HxVideoJob, retryAfterSeconds?: number): GatewayError {
  const error = readHxErrorBody(bodyText);
  const channelStatus = error?.code === 'Arrearage' ? 403 : status;
  if ([401, 403, 404, 408, 429].includes(channelStatus) || channelStatus >= 500 || channelStatus < 400) {
    return errorForUpstreamStatus(channelStatus, (error === undefined ? undefined : describeHxError(error)) ?? `the upstream answered HTTP ${status}`, retryAfterSeconds);
  }
  const message = error?.message ?? `the upstream answered HTTP ${status}`;
  return new GatewayError(502, error?.code ?? 'upstream_invalid_request', `the upstream refused the task: ${message}`, { param: hxUpstreamParam(message, job), retryable: false });
}

/** 502 for an answer that is not the DashScope answer expected; `retryable` only where nothing can have been started. */
export function invalidHxAnswer(what: string, retryable: boolean, cause?: unknown): GatewayError {
  return new GatewayError(502, 'upstream_invalid_response', `the upstream answered with something that is not ${what}`, { retryable, cause });
}
