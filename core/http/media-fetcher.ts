import { Agent, type Dispatcher } from 'undici';
import type { GatewayConfig } from '../config/config-schema.js';
import type { FetchedMedia, MediaFetcher, MediaFetchOptions, UpstreamUrlStreamOptions, VendorFetchedUrl } from '../contracts/provider/media-fetcher.js';
import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import { GatewayError } from '../errors/gateway-error.js';
import { clientClosedRequest } from './client-closed-request.js';
import { decodeDataUri, isDataUri } from './data-uri.js';
import type { AbortWatch } from './abort-flag.js';
import { Deadline } from './deadline.js';
import { isHttpUrlText } from './find-url-fields.js';
import { MediaAddressPolicy, type HostResolver } from './media-address-policy.js';
import { mediaFetchFailed, mediaFetchTimeout, mediaTooLarge, vendorFetchedUrlNotAllowed } from './media-errors.js';
import { assertAcceptedMimeType, mimeTypeFromContentType, mimeTypeFromPath, sniffMimeType } from './media-type.js';
import { errorCode, mapUndiciError, type UpstreamFailureContext } from './map-undici-error.js';
import { clientMediaWording, upstreamUrlWording, type RefusalWording } from './refusal-wording.js';
import { defaultMaxResponseBytes } from './read-whole-body.js';
import { upstreamResponseOf } from './upstream-response-of.js';

/** The `security.media` block of the config. */
export type MediaSecurityConfig = GatewayConfig['security']['media'];

/** Seams for tests. */
export interface GuardedMediaFetcherOptions {
  /** Resolves host names; defaults to the system resolver (`dns.lookup`). */
  resolveHost?: HostResolver;
}

const maximumRedirects = 3;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const unresolvableCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
// Identifies the gateway honestly and carries nothing else: no credentials, no cookies, no client headers.
const requestHeaders = { 'user-agent': 'model-gateway-media-fetcher/1', accept: '*/*', 'accept-encoding': 'identity' };

type UndiciBody = Dispatcher.ResponseData['body'];

/** Drops a body without reading it; the connection is closed. */
function discard(body: UndiciBody): void {
  body.on('error', () => undefined).destroy();
}

/** Rejects when `signal` aborts; never resolves otherwise. */
function aborted(signal: AbortWatch): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function parseMediaUrl(text: string, wording: RefusalWording): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw wording.invalidUrl('is not a valid URL', error);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw wording.invalidUrl(`uses ${url.protocol}, which the gateway does not fetch`);
  if (url.username !== '' || url.password !== '') throw wording.invalidUrl('carries a user name or password, which the gateway does not send');
  return url;
}

/**
 * The host of a channel's `base_url` (name and port, lower case); undefined when there is none
 * or it does not parse. The port counts: another port of the same machine is another service
 * (an admin console, a metadata proxy) that the operator never pointed the gateway at.
 */
function trustedHostOf(channelBaseUrl: string | undefined): string | undefined {
  if (channelBaseUrl === undefined || !URL.canParse(channelBaseUrl)) return undefined;
  return new URL(channelBaseUrl).host.toLowerCase();
}

/** Per-request limits that replace the agent's media defaults (an upstream's URL runs on the channel's timeouts). */
interface HopTimeouts {
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * The {@link MediaFetcher} every fetch of a URL the operator did not configure goes through
 * (DESIGN.md §7): client-given media, and the addresses upstreams give (`streamUpstreamUrl`).
 * `data:` URIs are decoded locally. Other URLs must be http(s); their host is resolved by the
 * guard itself, on a dedicated undici agent whose connections use that resolution, and every
 * address must be public unless `security.media` allows it (see {@link MediaAddressPolicy}).
 * Redirects are followed by hand, at most 3, each hop checked again.
 *
 * A client's media is buffered: the body is capped at `max_bytes` (refused from its
 * Content-Length, or as soon as the stream passes the cap) and the whole fetch at
 * `timeout_ms`. Every refusal is a 400 that says what to change: the client chose the URL,
 * so even a slow or failing host is the client's to fix. An upstream's URL is streamed
 * unread on the channel's timeouts, and its refusals are 502s about the upstream. A URL an
 * upstream gave on its channel's own host (`channelBaseUrl`) is fetched without the address
 * check, on an agent of its own: the operator configured that host and sends it the key.
 */
export class GuardedMediaFetcher implements MediaFetcher {
  readonly #config: MediaSecurityConfig;
  readonly #policy: MediaAddressPolicy;
  readonly #agent: Agent;
  /** For the channel's own host: the system's resolver, no address check (see `channelBaseUrl`). */
  readonly #channelHostAgent: Agent;

  constructor(config: MediaSecurityConfig, options: GuardedMediaFetcherOptions = {}) {
    this.#config = config;
    this.#policy = new MediaAddressPolicy(config, options.resolveHost);
    this.#channelHostAgent = new Agent({ pipelining: 1, connections: 64, keepAliveTimeout: 4_000, headersTimeout: config.timeout_ms, bodyTimeout: config.timeout_ms, connect: { timeout: config.timeout_ms } });
    this.#agent = new Agent({
      pipelining: 1,
      connections: 64,
      keepAliveTimeout: 4_000,
      headersTimeout: config.timeout_ms,
      bodyTimeout: config.timeout_ms,
      connect: { timeout: config.timeout_ms, lookup: this.#policy.lookup },
    });
  }

  async fetch(url: string, options: MediaFetchOptions = {}): Promise<FetchedMedia> {
    // A caller may lower the operator's cap, never raise it.
    const maxBytes = Math.min(options.maxBytes ?? this.#config.max_bytes, this.#config.max_bytes);
    const trimmed = url.trim();
    if (isDataUri(trimmed)) {
      const media = decodeDataUri(trimmed, maxBytes);
      assertAcceptedMimeType(media.mimeType, options.allowedMimeTypes);
      return media;
    }
    if (options.signal?.aborted === true) throw clientClosedRequest(options.signal.reason);
    const deadline = new Deadline(this.#config.timeout_ms, options.signal);
    try {
      const { response, url: answered } = await this.#follow(parseMediaUrl(trimmed, clientMediaWording), clientMediaWording, deadline.signal, undefined, trustedHostOf(options.channelBaseUrl));
      return await this.#readMedia(response, answered, maxBytes, options.allowedMimeTypes);
    } catch (error) {
      throw this.#failure(error, deadline, options.signal);
    } finally {
      deadline.clear();
    }
  }

  async streamUpstreamUrl(url: string, options: UpstreamUrlStreamOptions): Promise<UpstreamResponse> {
    const { signal: callerSignal } = options;
    // The agent's connect timeout is the media one; the context says so when it fires.
    const timeouts = { ...options.timeouts, connectMilliseconds: this.#config.timeout_ms };
    if (callerSignal.aborted) throw clientClosedRequest(callerSignal.reason);
    const deadline = new Deadline(timeouts.totalMilliseconds, callerSignal);
    const context: Omit<UpstreamFailureContext, 'phase'> = { callerSignal, deadline, timeouts };
    let response: Dispatcher.ResponseData;
    try {
      const hop = { headersTimeout: timeouts.firstByteMilliseconds, bodyTimeout: timeouts.idleMilliseconds };
      ({ response } = await this.#follow(parseMediaUrl(url.trim(), upstreamUrlWording), upstreamUrlWording, deadline.signal, hop, trustedHostOf(options.channelBaseUrl)));
    } catch (error) {
      deadline.clear();
      throw mapUndiciError(error, { ...context, phase: 'response' });
    }
    return upstreamResponseOf(response, deadline, context, options.maxResponseBytes ?? defaultMaxResponseBytes);
  }

  async checkVendorFetchedUrls(urls: readonly VendorFetchedUrl[], signal?: AbortSignal): Promise<void> {
    if (!this.#config.check_vendor_fetched_urls) return;
    for (const { url, field } of urls) {
      const trimmed = url.trim();
      if (!isHttpUrlText(trimmed) || !URL.canParse(trimmed)) continue;
      if (signal?.aborted === true) throw clientClosedRequest(signal.reason);
      // Name resolution is bounded like a fetch; a resolver that does not answer in time
      // lets the URL pass, as an unresolvable name does.
      const deadline = new Deadline(this.#config.timeout_ms, signal);
      try {
        await Promise.race([this.#policy.assertVendorFetchedUrlAllowed(new URL(trimmed)), aborted(deadline.signal)]);
      } catch (error) {
        if (deadline.signal.aborted && !deadline.expired) throw clientClosedRequest(signal?.reason);
        if (GatewayError.is(error) && error.code === 'media_url_not_allowed') throw vendorFetchedUrlNotAllowed(field, error);
        if (!deadline.expired) throw error;
      } finally {
        deadline.clear();
      }
    }
  }

  /** Closes the fetcher's connections once the fetches in flight have finished. */
  async close(): Promise<void> {
    await Promise.all([this.#agent.close(), this.#channelHostAgent.close()]);
  }

  /**
   * GETs `first` and follows its redirects by hand, each hop checked by the policy (but a hop
   * to `trustedHost`, the channel's own), and answers the first response that is not a
   * redirect, unread, with the URL that gave it.
   */
  async #follow(first: URL, wording: RefusalWording, signal: AbortWatch, timeouts?: HopTimeouts, trustedHost?: string): Promise<{ response: Dispatcher.ResponseData; url: URL }> {
    let url = first;
    for (let redirects = 0; ; redirects++) {
      const response =
        trustedHost !== undefined && url.host.toLowerCase() === trustedHost
          ? await this.#channelHostAgent.request({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: requestHeaders, signal, ...timeouts })
          : await this.#get(url, redirects > 0, wording, signal, timeouts);
      if (!redirectStatuses.has(response.statusCode)) return { response, url };
      discard(response.body);
      const location = headerValue(response.headers.location);
      if (location === undefined) throw wording.badRedirect(`answered HTTP ${response.statusCode} without a Location`);
      if (redirects === maximumRedirects) throw wording.badRedirect(`redirected more than ${maximumRedirects} times`);
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch (error) {
        throw wording.badRedirect('redirected to an invalid URL', error);
      }
      url = parseMediaUrl(next, wording);
    }
  }

  /** One hop: the address literal checked before, a host name's addresses at connect (the agent's lookup). */
  async #get(url: URL, redirected: boolean, wording: RefusalWording, signal: AbortWatch, timeouts: HopTimeouts | undefined): Promise<Dispatcher.ResponseData> {
    try {
      this.#policy.assertUrlAllowed(url);
      return await this.#agent.request({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: requestHeaders, signal, ...timeouts });
    } catch (error) {
      if (GatewayError.is(error) && error.code === 'media_url_not_allowed') throw wording.notAllowed(url, redirected, error);
      throw error;
    }
  }

  async #readMedia(response: Dispatcher.ResponseData, url: URL, maxBytes: number, accepted: readonly string[] | undefined): Promise<FetchedMedia> {
    const { body, statusCode, headers } = response;
    const declared = mimeTypeFromContentType(headerValue(headers['content-type']));
    try {
      if (statusCode < 200 || statusCode >= 300) throw mediaFetchFailed(`the media URL answered HTTP ${statusCode}`);
      // Refused from the headers when they already say enough, before any byte is read.
      if (declared !== undefined) assertAcceptedMimeType(declared, accepted);
      if (Number(headerValue(headers['content-length'])) > maxBytes) throw mediaTooLarge(maxBytes);
    } catch (error) {
      discard(body);
      throw error;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw mediaTooLarge(maxBytes);
      chunks.push(chunk);
    }
    const data = Buffer.concat(chunks, size);
    const mimeType = declared ?? mimeTypeFromPath(url.pathname) ?? sniffMimeType(data) ?? 'application/octet-stream';
    assertAcceptedMimeType(mimeType, accepted);
    return { mimeType, data };
  }

  #failure(error: unknown, deadline: Deadline, callerSignal: AbortSignal | undefined): unknown {
    if (callerSignal?.aborted === true) return clientClosedRequest(callerSignal.reason);
    if (GatewayError.is(error)) return error;
    const code = errorCode(error);
    if (deadline.expired || (code !== undefined && timeoutCodes.has(code))) return mediaFetchTimeout(this.#config.timeout_ms, error);
    if (code === undefined || code === 'UND_ERR_INVALID_ARG') return error;
    if (unresolvableCodes.has(code)) return mediaFetchFailed("the media URL's host name could not be resolved", error);
    return mediaFetchFailed(`could not fetch the media URL (${code})`, error);
  }
}
