import {
  describeGoogleRpcCode,
  emptyUpstreamAnswer,
  errorForUpstreamStatus,
  GatewayError,
  googleErrorBodySchema,
  googleKeyRefused,
  googleRetryAfterSeconds,
  invalidUpstreamAnswer,
  promptBlocked,
  type GoogleRpcStatus,
} from '../../core/index.js';

/**
 * The gateway error for an upstream error object that arrived with HTTP 200: in-band as a
 * stream frame, or as a whole body. Judged as core judges the same HTTP status, with the
 * `RetryInfo` delay passed on as `Retry-After`.
 */
export function gxErrorToGatewayError(error: GoogleRpcStatus): GatewayError {
  const status = googleKeyRefused(error)
    ? 401
    : typeof error.code === 'number' && error.code >= 400 && error.code <= 599
      ? error.code
      : describeGoogleRpcCode(undefined, error.status).http;
  const message = error.message ?? error.status ?? `the upstream reported error ${status}`;
  return errorForUpstreamStatus(status, message, googleRetryAfterSeconds(error));
}

/** The gateway error for an upstream error body (`{"error": ...}`) that came with HTTP 200, in a stream frame or a whole body; undefined for any other answer. */
export function gxInBandError(json: unknown): GatewayError | undefined {
  const error = readGxError(json);
  return error === undefined ? undefined : gxErrorToGatewayError(error);
}

/** The upstream error object in a parsed JSON value, if it is an error body (`{"error": ...}`). */
export function readGxError(json: unknown): GoogleRpcStatus | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const parsed = googleErrorBodySchema.safeParse(json);
  if (parsed.success) return parsed.data.error;
  const error = (json as { error: unknown }).error;
  return { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

/** What a gx answer is expected to be, for {@link invalidGxResponse} and `readUpstreamAnswer`. */
export const gxResponseExpected = 'a generateContent response';

/** 502 for an upstream answer that is not JSON or not a generateContent response; another channel may do better. */
export function invalidGxResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(gxResponseExpected, { cause });
}

/** 502 for an answer without any candidate and without a reason. */
export function emptyGxResponse(): GatewayError {
  return emptyUpstreamAnswer('the upstream answered without any candidate');
}

/** 400 for a prompt the upstream refused to answer (`promptFeedback.blockReason`); the same prompt fails anywhere. */
export function gxPromptBlocked(reason: string, detail: string | null | undefined): GatewayError {
  const explanation = detail === undefined || detail === null || detail === '' ? '' : `: ${detail}`;
  return promptBlocked(`the upstream blocked the prompt (${reason})${explanation}; change the prompt`);
}
