import type { GatewayError } from '../errors/gateway-error.js';
import { invalidMediaUrl, mediaFetchFailed } from './media-errors.js';
import { upstreamRedirectFailed, upstreamUrlNotAllowed, upstreamUrlRefused } from './upstream-url-errors.js';

/**
 * How the media guard words what it refuses, by who gave the URL: a client's URL gets 400s
 * telling the client what to change, an upstream's URL 502s about the upstream. The checks
 * are the same either way.
 */
export interface RefusalWording {
  /** A URL refused by its form; `problem` completes "the URL …" ("uses file:, …"). */
  invalidUrl(problem: string, cause?: unknown): GatewayError;
  /** An address the guard refused; `refusal` is the address policy's own 400 `media_url_not_allowed`. */
  notAllowed(url: URL, redirected: boolean, refusal: GatewayError): GatewayError;
  /** A redirect that cannot be followed; `problem` completes "the URL …". */
  badRedirect(problem: string, cause?: unknown): GatewayError;
}

/** The client's URL: the media errors (400). */
export const clientMediaWording: RefusalWording = {
  invalidUrl: (problem, cause) => invalidMediaUrl(`the media URL ${problem}`, cause),
  notAllowed: (_url, _redirected, refusal) => refusal,
  badRedirect: (problem, cause) => mediaFetchFailed(`the media URL ${problem}`, cause),
};

/** An upstream's URL: 502 `upstream_url_refused` and `upstream_invalid_response`. */
export const upstreamUrlWording: RefusalWording = {
  invalidUrl: upstreamUrlRefused,
  notAllowed: upstreamUrlNotAllowed,
  badRedirect: upstreamRedirectFailed,
};
