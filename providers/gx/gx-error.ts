import { emptyUpstreamAnswer, errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer, promptBlocked } from '../../core/index.js';
import { gxErrorBodySchema, type GxErrorBody } from './gx-schemas.js';

/** The `error` object of an upstream error body. */
export type GxErrorDetail = GxErrorBody['error'];

// google.rpc status names, for an error object that carries no numeric code (upstreams.md §1.10).
const statusCodes: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNKNOWN: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** The upstream's own message in an error body, for `upstreamStatusError(response, describeGxError)`. */
export function describeGxError(body: string): string | undefined {
  try {
    const parsed = gxErrorBodySchema.safeParse(JSON.parse(body));
    if (!parsed.success) return undefined;
    const { message, status } = parsed.data.error;
    if (message === undefined || message === null || message === '') return status ?? undefined;
    return status === undefined || status === null ? message : `${message} (${status})`;
  } catch {
    return undefined;
  }
}

/** The `RetryInfo` delay of an error body, for `upstreamStatusError(response, describeGxError, gxRetryAfterInBody)`. */
export function gxRetryAfterInBody(body: string): number | undefined {
  const parsed = gxErrorBodySchema.safeParse(JSON.parse(body));
  return parsed.success ? retryAfterSeconds(parsed.data.error.details) : undefined;
}

/**
 * 401 when an error's details carry `ErrorInfo` with the reason `API_KEY_INVALID`: the
 * upstream answers a refused key with 400 `INVALID_ARGUMENT` (upstreams.md §1.10), but the
 * key is the channel's, so it is the channel's failure (another channel may answer), not a
 * mistake of the client's to pass back.
 */
function refusedKeyStatus(details: unknown[] | null | undefined): number | undefined {
  for (const detail of details ?? []) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { '@type': type, reason } = detail as Record<string, unknown>;
    if (typeof type === 'string' && type.endsWith('google.rpc.ErrorInfo') && reason === 'API_KEY_INVALID') return 401;
  }
  return undefined;
}

/** The status an error body means, for `upstreamStatusError(..., gxStatusInBody)`: 401 for a refused channel key. */
export function gxStatusInBody(body: string): number | undefined {
  const parsed = gxErrorBodySchema.safeParse(JSON.parse(body));
  return parsed.success ? refusedKeyStatus(parsed.data.error.details) : undefined;
}

/** Seconds to wait, from a `google.rpc.RetryInfo` detail (`"retryDelay": "34.4s"`), rounded up. */
function retryAfterSeconds(details: unknown[] | null | undefined): number | undefined {
  for (const detail of details ?? []) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { '@type': type, retryDelay } = detail as Record<string, unknown>;
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo') || typeof retryDelay !== 'string') continue;
    const seconds = Number.parseFloat(retryDelay);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1, Math.ceil(seconds));
  }
  return undefined;
}

/**
 * The gateway error for an upstream error object that arrived with HTTP 200: in-band as a
 * stream frame, or as a whole body. Judged as core judges the same HTTP status, with the
 * `RetryInfo` delay passed on as `Retry-After`.
 */
export function gxErrorToGatewayError(error: GxErrorDetail): GatewayError {
  const status =
    refusedKeyStatus(error.details) ??
    (typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : (statusCodes[error.status ?? ''] ?? 500));
  const message = error.message ?? error.status ?? `the upstream reported error ${status}`;
  return errorForUpstreamStatus(status, message, retryAfterSeconds(error.details));
}

/** The upstream error object in a parsed JSON value, if it is an error body (`{"error": ...}`). */
export function readGxError(json: unknown): GxErrorDetail | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const parsed = gxErrorBodySchema.safeParse(json);
  if (parsed.success) return parsed.data.error;
  const error = (json as { error: unknown }).error;
  return { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

/** 502 for an upstream answer that is not JSON or not a generateContent response; another channel may do better. */
export function invalidGxResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer('a generateContent response', { cause });
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
