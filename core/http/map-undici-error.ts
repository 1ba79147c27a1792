import type { ChannelTimeouts } from '../contracts/provider/operation-call.js';
import { GatewayError } from '../errors/gateway-error.js';
import { clientClosedRequest } from './client-closed-request.js';
import type { Deadline } from './deadline.js';

/** What an upstream call was doing when it failed, to word the error. */
export interface UpstreamFailureContext {
  /** The signal the caller passed; aborted means the client went away. */
  callerSignal: AbortSignal;
  /** The call's total deadline. */
  deadline: Deadline;
  timeouts: ChannelTimeouts;
  /** `response` until the headers arrived, `body` while the body was read. */
  phase: 'response' | 'body';
}

// Mistakes in the request the plugin built, not upstream failures: passed on unchanged.
const requestMistakeCodes = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_INVALID_RETURN_VALUE',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
]);

const malformedResponseCodes = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);

/**
 * The error code of a Node or undici error; for an `AggregateError` (every address of a
 * host refused) the first inner error's code.
 */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) ? errorCode(inner[0]) : undefined;
}

const timedOut = (message: string, cause: unknown) => new GatewayError(504, 'upstream_timeout', message, { cause, retryable: true });

/**
 * Maps a failure of an undici upstream call to a gateway error, the way fastify-reply-from
 * maps undici codes: connect errors 502 and timeouts 504, both retryable on another channel;
 * a caller abort 499, not retryable. Messages name the error code and the limit, never the
 * request's headers or query (they may carry keys); the original error is kept as `cause`.
 * Errors that are not upstream failures are returned unchanged.
 */
export function mapUndiciError(error: unknown, context: UpstreamFailureContext): unknown {
  if (GatewayError.is(error)) return error;
  const { callerSignal, deadline, timeouts, phase } = context;
  if (callerSignal.aborted) return clientClosedRequest(callerSignal.reason);
  if (deadline.expired) return timedOut(`the upstream call did not finish within ${timeouts.totalMilliseconds} ms`, error);
  const code = errorCode(error);
  if (code === undefined || requestMistakeCodes.has(code)) return error;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return timedOut(`could not connect to the upstream within ${timeouts.connectMilliseconds} ms`, error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return timedOut(`the upstream sent no response within ${timeouts.firstByteMilliseconds} ms`, error);
  if (code === 'UND_ERR_BODY_TIMEOUT') return timedOut(`the upstream went silent for ${timeouts.idleMilliseconds} ms in the middle of its answer`, error);
  if (code.startsWith('HPE_') || malformedResponseCodes.has(code)) {
    return new GatewayError(502, 'upstream_protocol_error', `the upstream sent a malformed HTTP response (${code})`, { cause: error, retryable: true });
  }
  if (phase === 'body') {
    return new GatewayError(502, 'upstream_connection_lost', `the upstream connection broke in the middle of its answer: ${code}`, { cause: error, retryable: true });
  }
  return new GatewayError(502, 'upstream_unreachable', `could not reach the upstream: ${code}`, { cause: error, retryable: true });
}
