import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import type { GatewayError } from '../errors/gateway-error.js';
import { errorForUpstreamStatus, readBodyExcerpt, retryAfterHeader } from './upstream-error.js';
import { readUpstreamJsonAs, type UpstreamSchema } from './upstream-json.js';

/** Turns an upstream's non-2xx answer into the gateway error a provider reports for it. */
export type UpstreamStatusMapper = (response: UpstreamResponse) => Promise<GatewayError>;

/**
 * How an upstream's JSON error body reads: the one thing a provider says about its vendor's
 * errors, for {@link createStatusErrorMapper}. Only `errorSchema` and `describe` are needed;
 * the hooks are for what a body tells that its status line does not.
 */
export interface UpstreamErrorDialect<Body> {
  /** The error body, read leniently (`z.looseObject`, `nullish` fields): a body it does not read, such as a proxy's HTML page, leaves the status line to speak alone. */
  errorSchema: UpstreamSchema<Body>;
  /** The upstream's own words for the error, the gateway error's message: `message (code)`; undefined when the body has none. */
  describe: (body: Body) => string | undefined;
  /** Seconds the body asks a 429's client to wait, used when no `Retry-After` header came (gx states it as a `RetryInfo` detail). */
  retryAfterSeconds?: (body: Body) => number | undefined;
  /** The status the body means when the status line says less (gx answers a refused channel key with 400 and `API_KEY_INVALID`: the channel's 401); undefined keeps the status line. */
  statusOf?: (body: Body, status: number) => number | undefined;
  /**
   * The gateway error for a body no status can stand for (a safety refusal, a model the
   * upstream lacks, something the request names), with the status line and the message
   * `describe` made; undefined to judge the status as {@link errorForUpstreamStatus} does.
   */
  errorOf?: (body: Body, status: number, message: string) => GatewayError | undefined;
}

/**
 * The gateway error for an upstream error with `status` (a status line, or the status an
 * in-band error stands for) and its `body` as `dialect` read it, undefined for a body that is
 * none of the dialect's: the dialect's own error when it has one, else the status judged
 * (see {@link errorForUpstreamStatus}) in the upstream's words, with `retryAfterSeconds` (the
 * `Retry-After` header) or, on a 429 without it, the delay the body asks for.
 */
export function errorForUpstreamBody<Body>(status: number, body: Body | undefined, dialect: UpstreamErrorDialect<Body>, retryAfterSeconds?: number): GatewayError {
  const message = (body === undefined ? undefined : dialect.describe(body)) ?? `the upstream answered HTTP ${status}`;
  if (body === undefined) return errorForUpstreamStatus(status, message, retryAfterSeconds);
  const own = dialect.errorOf?.(body, status, message);
  if (own !== undefined) return own;
  const retryAfter = retryAfterSeconds ?? (status === 429 ? dialect.retryAfterSeconds?.(body) : undefined);
  return errorForUpstreamStatus(dialect.statusOf?.(body, status) ?? status, message, retryAfter);
}

/**
 * The status-error mapper of an upstream dialect: reads the first 64 KiB of a non-2xx answer
 * (see `readBodyExcerpt`), the body by `dialect.errorSchema`, and judges it as
 * {@link errorForUpstreamBody} does, with the `Retry-After` header passed on. A dialect's
 * error file is then its schema, its words and the few codes it knows.
 */
export function createStatusErrorMapper<Body>(dialect: UpstreamErrorDialect<Body>): UpstreamStatusMapper {
  return async (response) => errorForUpstreamBody(response.statusCode, readUpstreamJsonAs(await readBodyExcerpt(response), dialect.errorSchema), dialect, retryAfterHeader(response));
}

/**
 * The gateway error for a non-2xx answer whose body the provider does not read: its status
 * judged (see {@link errorForUpstreamStatus}) with `Retry-After` passed on. The body's first
 * 64 KiB are read all the same and dropped, so the connection is let go.
 */
export async function upstreamStatusError(response: UpstreamResponse): Promise<GatewayError> {
  await readBodyExcerpt(response);
  return errorForUpstreamStatus(response.statusCode, `the upstream answered HTTP ${response.statusCode}`, retryAfterHeader(response));
}
