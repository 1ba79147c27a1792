import { describeUpstreamError, emptyUpstreamAnswer, errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer, promptBlocked, readUpstreamJsonAs } from '../../core/index.js';
import { qiErrorBodySchema, type QiErrorBody } from './qi-schemas.js';

/**
 * Codes DashScope answers when its moderation refused the input or the output:
 * `DataInspectionFailed` (upstreams.md §4.1), `IPInfringementSuspect` and
 * `CustomRoleBlocked` (DashScope's error-code table), and the snake-case spelling of its
 * OpenAI-compatible mode.
 */
const blockedCodes = new Set(['DataInspectionFailed', 'IPInfringementSuspect', 'CustomRoleBlocked', 'data_inspection_failed']);

/** Whether an error code means the upstream's safety filter blocked the prompt or an image. */
export const isQiBlockedCode = (code: string | null | undefined): boolean => typeof code === 'string' && blockedCodes.has(code);

/** The parsed error body in an upstream answer's text, if it is one. */
export function readQiErrorBody(text: string): QiErrorBody | undefined {
  const body = readUpstreamJsonAs(text, qiErrorBodySchema);
  return (body?.code ?? body?.message) ? body : undefined;
}

/** The upstream's own words for an error body: `message (code)`. */
export const describeQiError = (error: QiErrorBody): string | undefined => describeUpstreamError(error.message, error.code);

/** 400 `prompt_blocked`: not retryable, another channel would refuse it too. */
export function qiPromptBlocked(error: QiErrorBody): GatewayError {
  return promptBlocked(`the upstream's safety filter blocked the request: ${describeQiError(error) ?? 'no reason given'}; change the prompt or the image`);
}

/**
 * The gateway error for an upstream's non-2xx answer: a moderation code is `prompt_blocked`,
 * anything else is judged by its status like `upstreamStatusError` does (429, 5xx, 401,
 * 403 and 404 retryable on another channel; other 4xx the client's), with DashScope's own
 * message and `Retry-After` passed on.
 */
export function qiStatusError(status: number, bodyText: string, retryAfterSeconds?: number): GatewayError {
  const error = readQiErrorBody(bodyText);
  if (error !== undefined && isQiBlockedCode(error.code)) return qiPromptBlocked(error);
  const detail = error === undefined ? undefined : describeQiError(error);
  return errorForUpstreamStatus(status, detail ?? `the upstream answered HTTP ${status}`, retryAfterSeconds);
}

// An error body that came with HTTP 200 has no status, so its code says how to judge it
// (the codes and statuses of upstreams.md §4.1).
function statusOfCode(code: string): number {
  if (code === 'InvalidApiKey') return 401;
  if (code.startsWith('AccessDenied') || code.endsWith('.AccessDenied')) return 403;
  if (code === 'ModelNotFound') return 404;
  if (code.startsWith('Throttling')) return 429;
  if (code === 'InvalidParameter' || code === 'InvalidURL' || code.startsWith('BadRequest')) return 400;
  return 500;
}

/** The gateway error for an error body the upstream sent with HTTP 200. */
export function qiInBandError(error: QiErrorBody): GatewayError {
  if (isQiBlockedCode(error.code)) return qiPromptBlocked(error);
  const status = statusOfCode(error.code ?? '');
  return errorForUpstreamStatus(status, describeQiError(error) ?? `the upstream reported error ${status}`);
}

/** 502 `empty_response`: the upstream answered without any image; another channel, or a retry, may do better. */
export function emptyQiResponse(): GatewayError {
  return emptyUpstreamAnswer('the upstream returned no image; retry once or twice');
}

/** 502 for an answer that is not a DashScope image answer. */
export function invalidQiResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer('an image generation result', { cause });
}
