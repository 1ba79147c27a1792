import type { ChannelTimeouts } from './operation-call.js';
import type { UpstreamResponse } from './upstream-http.js';

/** Media fetched from a client-given URL or data URI. */
export interface FetchedMedia {
  mimeType: string;
  data: Buffer;
}

/** Options of one media fetch. */
export interface MediaFetchOptions {
  /** Accepted MIME types (lower case); anything else is a 400. */
  allowedMimeTypes?: readonly string[];
  /** Defaults to the gateway's configured cap. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** See {@link UpstreamUrlStreamOptions.channelBaseUrl}; only for a URL the upstream gave, never a client's. */
  channelBaseUrl?: string;
}

/** A URL the client gave that the upstream, not the gateway, will fetch, and the field it came in. */
export interface VendorFetchedUrl {
  url: string;
  /** The client's field path, e.g. `metadata.input.media[0].url`: the `param` of a refusal. */
  field: string;
}

/** Options of one {@link MediaFetcher.streamUpstreamUrl}. */
export interface UpstreamUrlStreamOptions {
  /** Aborted when the client goes away; pass the call's signal. */
  signal: AbortSignal;
  /** The channel's timeouts; first byte, idle and total bound the transfer, redirects included. */
  timeouts: ChannelTimeouts;
  /**
   * The channel's `base_url` (pass `call.channel.baseUrl`): a URL on the same host and port is
   * fetched whatever its address, private or loopback included, since the gateway already trusts that
   * host with the channel's key (an upstream the operator runs on a private network serves
   * its results from there). A redirect to any other host is checked as usual.
   */
  channelBaseUrl?: string;
  /** As {@link UpstreamRequest.maxResponseBytes}; the host sets the channel's when a provider leaves it out. */
  maxResponseBytes?: number;
}

/**
 * Fetches client-given media through the SSRF guard: http(s) only, every resolved address
 * checked against private, loopback, link-local and metadata ranges, size and time capped.
 * `data:` URIs are decoded without any fetch. Refusals are 400s that say what to change.
 */
export interface MediaFetcher {
  fetch(url: string, options?: MediaFetchOptions): Promise<FetchedMedia>;
  /**
   * Streams what a URL an upstream gave points at: a finished video's signed link, the
   * `Location` a download redirects to. Such a URL is no more trusted than a client's: a
   * compromised or misbehaving upstream (or a redirect, or a DNS answer) could point it at
   * loopback, the private network or cloud metadata, and {@link UpstreamHttp} checks nothing,
   * since it is meant for the channel's configured origin. So the URL goes through the guard
   * of {@link fetch}: http(s) only, no user name or password, the host resolved by the guard
   * and the connection pinned to the addresses it checked, redirects followed by the guard
   * (at most 3, each hop checked again), no credentials sent.
   *
   * Unlike `fetch` nothing is buffered (a video is too large for that): the final answer comes
   * back unread, whatever its status, for the caller to judge and consume. The channel's
   * timeouts bound it instead of a byte cap; `security.media.timeout_ms` bounds the connect.
   * @throws GatewayError 502 `upstream_url_refused` (not retried) for an address the guard
   *   refuses or a URL that is not plain http(s), before any connection to it; 502
   *   `upstream_invalid_response` for a redirect that cannot be followed; network failures
   *   and timeouts as {@link UpstreamHttp} reports them (502, 504, 499).
   */
  streamUpstreamUrl(url: string, options: UpstreamUrlStreamOptions): Promise<UpstreamResponse>;
  /**
   * Checks the URLs a client gave that the upstream will fetch itself (a video's reference
   * image, a native `fileData.fileUri`) against the address policy of {@link fetch}, before
   * the upstream is called: an address literal, or a host name resolved here, that is
   * loopback, private, link-local or cloud metadata is refused unless `security.media`
   * allows it. Only http(s) URLs are judged; a name that does not resolve here passes (the
   * upstream resolves it again itself, so DNS rebinding cannot be excluded: the upstream's
   * own network is its own to guard). Does nothing when
   * `security.media.check_vendor_fetched_urls` is false.
   * @throws GatewayError 400 `media_url_not_allowed` whose `param` is the field of the first URL refused.
   */
  checkVendorFetchedUrls(urls: readonly VendorFetchedUrl[], signal?: AbortSignal): Promise<void>;
}
