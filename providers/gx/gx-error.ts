import { emptyUpstreamAnswer, promptBlocked, type GatewayError } from '../../core/index.js';
import { errorForUpstreamStatus, invalidUpstreamAnswer } from '../../core/kit/index.js';
import {
  describeGoogleRpcCode,
  googleErrorBodySchema,
  googleKeyRefused,
  googleNamedResourceDenial,
  googleRetryAfterSeconds,
  type GoogleRpcStatus,
} from '../shared/google-api/google-api-errors.js';
import type { GxGenerateContentResponse } from './gx-schemas.js';

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
  return googleNamedResourceDenial(status, error) ?? errorForUpstreamStatus(status, message, googleRetryAfterSeconds(error));
}

/** The gateway error for an upstream error body (`{"error": ...}`) that came with HTTP 200, in a stream frame or a whole body; undefined for any other answer. */
export function gxInBandError(json: unknown): GatewayError | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const parsed = googleErrorBodySchema.safeParse(json);
  if (parsed.success) return gxErrorToGatewayError(parsed.data.error);
  const error = (json as { error: unknown }).error;
  return gxErrorToGatewayError({ message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' });
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

/** 400 `prompt_blocked` when the upstream refused the prompt (`promptFeedback.blockReason`; the same prompt fails anywhere), else undefined. */
export function gxPromptBlocked(response: GxGenerateContentResponse, refused = 'the prompt', remedy = 'change the prompt'): GatewayError | undefined {
  const reason = response.promptFeedback?.blockReason;
  if (reason === undefined || reason === null || reason === '') return undefined;
  const detail = response.promptFeedback?.blockReasonMessage;
  const explanation = detail === undefined || detail === null || detail === '' ? '' : `: ${detail}`;
  return promptBlocked(`the upstream blocked ${refused} (${reason})${explanation}; ${remedy}`);
}
