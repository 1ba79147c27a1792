import { errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer } from '../../core/index.js';
import { gpErrorBodySchema, type GpErrorDetail } from './gp-schemas.js';

/** The upstream's own message in an error body, for `upstreamStatusError(response, describeGpError)`. */
export function describeGpError(body: string): string | undefined {
  try {
    const parsed = gpErrorBodySchema.safeParse(JSON.parse(body));
    if (!parsed.success) return undefined;
    return describeDetail(parsed.data.error);
  } catch {
    return undefined;
  }
}

function describeDetail(error: GpErrorDetail): string | undefined {
  const label = [error.type, error.code].filter((part) => part !== undefined && part !== null && part !== '').join(', ');
  const message = error.message ?? undefined;
  if (message === undefined || message === '') return label === '' ? undefined : label;
  return label === '' ? message : `${message} (${label})`;
}

// An in-band error carries no HTTP status, so its type and code say how to judge it.
function statusOf(error: GpErrorDetail): number {
  if (typeof error.code === 'number' && error.code >= 400 && error.code <= 599) return error.code;
  const names = [error.type, typeof error.code === 'string' ? error.code : undefined];
  if (names.some((name) => name === 'rate_limit_exceeded' || name === 'insufficient_quota' || name === 'requests' || name === 'tokens')) return 429;
  if (names.some((name) => name === 'invalid_api_key' || name === 'authentication_error')) return 401;
  if (names.some((name) => name === 'model_not_found')) return 404;
  if (names.some((name) => name === 'invalid_request_error')) return 400;
  return 500;
}

/** The gateway error for an upstream error object that arrived with HTTP 200 (an in-band stream frame or a whole body). */
export function gpErrorToGatewayError(error: GpErrorDetail): GatewayError {
  const status = statusOf(error);
  return errorForUpstreamStatus(status, describeDetail(error) ?? `the upstream reported error ${status}`);
}

/** The upstream error object in a parsed JSON value, if it is an error body (`{"error": ...}`). */
export function readGpError(json: unknown): GpErrorDetail | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = (json as { error: unknown }).error;
  if (error === null || error === undefined) return undefined;
  const parsed = gpErrorBodySchema.safeParse(json);
  if (parsed.success) return parsed.data.error;
  return { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

/** 502 for an upstream answer that is not what was asked for (`a chat completion`, `a response`); another channel may do better. */
export function invalidGpResponse(cause?: unknown, expected = 'a chat completion'): GatewayError {
  return invalidUpstreamAnswer(expected, { cause });
}

/** 502 for a stream that ended before its end marker: `[DONE]` or a finish reason for chat, a terminal event for Responses. */
export function truncatedGpStream(): GatewayError {
  return new GatewayError(502, 'upstream_stream_truncated', 'the upstream stream ended before the answer was finished', { retryable: true });
}
