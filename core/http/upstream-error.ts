import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import { upstreamAuthFailed, upstreamFailed, upstreamModelUnknown } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { upstreamErrorCode } from '../errors/error-code-registry.js';
import { redactSecrets } from '../logging/create-logger.js';

const excerptLimit = 64 * 1024;

/**
 * Reads at most 64 KiB of a body as text. The rest is not read: the body is destroyed there
 * (dropping the connection), so an error body of any size costs no more than the excerpt.
 */
export async function readBodyExcerpt(response: UpstreamResponse): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= excerptLimit) break;
    }
  } catch {
    // A body that breaks off still leaves what was read as the excerpt.
  }
  return Buffer.concat(chunks).subarray(0, excerptLimit).toString('utf8');
}

/**
 * The gateway error for an upstream failure with HTTP-like `status` and the upstream's own
 * `message`. 429, 5xx, 408 and the channel's own auth failures (401, 403) are retryable on
 * another channel and count toward its circuit; a missing model (404) is tried on another
 * channel too, but is the request's fault, never the channel's (`upstreamModelUnknown`: on a
 * channel serving a pattern, a client can name any model); other 4xx are the client's
 * mistake and are passed back as they are, never retried. Use it for errors that arrive in-band (an error frame, an
 * error object in a 200 body) so they are judged like a status line would be.
 */
export function errorForUpstreamStatus(status: number, upstreamMessage: string, retryAfterSeconds?: number): GatewayError {
  const message = redactSecrets(upstreamMessage);
  if (status === 429) {
    return new GatewayError(429, 'upstream_rate_limited', `the upstream is rate limiting: ${message}`, {
      retryable: true,
      headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
  if (status === 408 || status === 504) return new GatewayError(504, 'upstream_timeout', `the upstream timed out: ${message}`, { retryable: true });
  if (status >= 500) return upstreamFailed(`the upstream failed (HTTP ${status}): ${message}`, { retryable: true });
  if (status === 401 || status === 403) {
    // The upstream's words are about the channel's key, not the client's: kept for the operator only.
    return upstreamAuthFailed(`the upstream refused this channel's credentials (HTTP ${status})`, message);
  }
  if (status === 404) return upstreamModelUnknown(message);
  return new GatewayError(status >= 400 && status < 500 ? status : 502, 'upstream_invalid_request', message);
}

// Statuses about the channel, not the request: its key (401, 403), a model or path it lacks
// (404), a timeout (408), its rate limit (429).
const channelStatuses = new Set([401, 403, 404, 408, 429]);

/**
 * Whether an upstream's non-2xx answer to a task submission is the channel's trouble rather
 * than the request's: the statuses above, 5xx, and anything that is no 4xx. Such an answer is
 * judged by {@link errorForUpstreamStatus} and the submission moves to another channel before
 * any accepts it; any other 4xx is the upstream refusing the request (see {@link upstreamRefusal}).
 */
export const isChannelTrouble = (status: number): boolean => status < 400 || status >= 500 || channelStatuses.has(status);

/**
 * 502 with the upstream's own `code` (`upstream_invalid_request` without one) and the field
 * it names as `param`: the upstream refused the request itself, passed through as spec part 2
 * says upstream task errors are. Not retried unless `retryable`: another channel would refuse
 * the same request.
 */
export function upstreamRefusal(code: string | null | undefined, message: string, options: { param?: string | null; retryable?: boolean } = {}): GatewayError {
  return new GatewayError(502, code === null || code === undefined ? 'upstream_invalid_request' : upstreamErrorCode(code), redactSecrets(message), { param: options.param ?? undefined, retryable: options.retryable ?? false });
}

/**
 * An upstream's error in its own words: `message (code)`, either alone when the other is
 * missing, undefined with neither. `code` is whatever names the error (a code, a status name).
 */
export function describeUpstreamError(message: string | null | undefined, code: string | null | undefined): string | undefined {
  const text = message ?? '';
  const label = code ?? '';
  if (text === '') return label === '' ? undefined : label;
  return label === '' ? text : `${text} (${label})`;
}

/** The delay an upstream's `Retry-After` header asks for, in seconds; undefined without one or for a date. */
export function retryAfterHeader(response: Pick<UpstreamResponse, 'headers'>): number | undefined {
  const header = response.headers['retry-after'];
  const seconds = header === undefined || header === '' ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
