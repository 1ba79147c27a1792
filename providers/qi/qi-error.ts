import { dashScopeCodeStatus, describeDashScopeError, emptyUpstreamAnswer, errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer, isDashScopeModerationCode, promptBlocked, readDashScopeErrorBody, type DashScopeErrorBody } from '../../core/index.js';

/** 400 `prompt_blocked`: not retryable, another channel would refuse it too. */
export function qiPromptBlocked(error: DashScopeErrorBody): GatewayError {
  return promptBlocked(`the upstream's safety filter blocked the request: ${describeDashScopeError(error) ?? 'no reason given'}; change the prompt or the image`);
}

/**
 * The gateway error for an upstream's non-2xx answer: a moderation code is `prompt_blocked`,
 * anything else is judged by its status like `upstreamStatusError` does (429, 5xx, 401,
 * 403 and 404 retryable on another channel; other 4xx the client's), with DashScope's own
 * message and `Retry-After` passed on.
 */
export function qiStatusError(status: number, bodyText: string, retryAfterSeconds?: number): GatewayError {
  const error = readDashScopeErrorBody(bodyText);
  if (error !== undefined && isDashScopeModerationCode(error.code)) return qiPromptBlocked(error);
  const detail = error === undefined ? undefined : describeDashScopeError(error);
  return errorForUpstreamStatus(status, detail ?? `the upstream answered HTTP ${status}`, retryAfterSeconds);
}

/** The gateway error for an error body the upstream sent with HTTP 200: its code says how to judge it. */
export function qiInBandError(error: DashScopeErrorBody): GatewayError {
  if (isDashScopeModerationCode(error.code)) return qiPromptBlocked(error);
  const status = dashScopeCodeStatus(error.code ?? '');
  return errorForUpstreamStatus(status, describeDashScopeError(error) ?? `the upstream reported error ${status}`);
}

/** 502 `empty_response`: the upstream answered without any image; another channel, or a retry, may do better. */
export function emptyQiResponse(): GatewayError {
  return emptyUpstreamAnswer('the upstream returned no image; retry once or twice');
}

/** What a qi answer is expected to be, for {@link invalidQiResponse} and `readUpstreamAnswer`. */
export const qiResponseExpected = 'an image generation result';

/** 502 for an answer that is not a DashScope image answer. */
export function invalidQiResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(qiResponseExpected, { cause });
}
