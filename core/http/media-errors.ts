import { GatewayError } from '../errors/gateway-error.js';

// Every media failure is a 400: the client chose the URL or the data, so the client is the
// one who can fix it, even when the cause is a slow or broken host.

const instead = 'use a public http(s) URL, or send the media inline as a data: URI';

/** 400 `invalid_media_url`: not a URL the gateway can fetch or decode. */
export const invalidMediaUrl = (problem: string, cause?: unknown) =>
  new GatewayError(400, 'invalid_media_url', `${problem}; ${instead}`, { cause });

/** 400 `media_url_not_allowed`: the URL points at an address the SSRF guard refuses. */
export const mediaUrlNotAllowed = (cause: unknown) =>
  new GatewayError(
    400,
    'media_url_not_allowed',
    `the media URL points to a private, loopback, link-local or otherwise non-public address, which the gateway does not fetch; ${instead} (an operator can allow a host in security.media.allow_hosts)`,
    { cause },
  );

/** 400 `media_too_large`: the media passed the byte limit. */
export const mediaTooLarge = (maxBytes: number) =>
  new GatewayError(400, 'media_too_large', `the media is larger than the limit of ${maxBytes} bytes; send a smaller file`);

/** 400 `media_fetch_timeout`: the URL did not deliver the media in time. */
export const mediaFetchTimeout = (milliseconds: number, cause?: unknown) =>
  new GatewayError(400, 'media_fetch_timeout', `the media URL did not deliver the media within ${milliseconds / 1000} s; use a faster host, or send the media inline as a data: URI`, {
    cause,
  });

/** 400 `media_fetch_failed`: the URL answered with an error or could not be reached. */
export const mediaFetchFailed = (problem: string, cause?: unknown) =>
  new GatewayError(400, 'media_fetch_failed', `${problem}; check that the URL is correct and publicly reachable, or send the media inline as a data: URI`, {
    cause,
  });

/** 400 `unsupported_media_type`: the media's type is not one the operation accepts. */
export const unsupportedMediaType = (mimeType: string, accepted: readonly string[]) =>
  new GatewayError(400, 'unsupported_media_type', `the media is ${mimeType}, which is not accepted here; send one of: ${accepted.join(', ')}`);

/**
 * 400 `media_url_not_allowed` for a URL the upstream, not the gateway, would fetch: the same
 * address policy as {@link mediaUrlNotAllowed}, worded for the field that carried it.
 */
export const vendorFetchedUrlNotAllowed = (field: string, cause: unknown) =>
  new GatewayError(
    400,
    'media_url_not_allowed',
    `${field}: the URL points to a private, loopback, link-local or otherwise non-public address, which the gateway does not pass to an upstream to fetch; use a public http(s) URL (an operator can allow a host in security.media.allow_hosts)`,
    { param: field, cause },
  );

/**
 * A 400 media error with the request field it is about in front of its message (or `label`,
 * such as the field with a file's name) and as its `param`, so the client knows which of its
 * URLs to fix. Anything else is returned as it is.
 */
export function mediaErrorAboutField(error: unknown, field: string, label = field): unknown {
  if (!GatewayError.is(error) || error.statusCode !== 400) return error;
  return new GatewayError(400, error.code, `${label}: ${error.message}`, { param: field, cause: error, headers: error.headers });
}
