import type { z } from 'zod';
import type { StreamDecoder } from './stream-decoder.js';
import type { Usage } from './usage.js';
import type { OperationRequests } from './operation-requests.js';

/** The operations a provider can implement; each has the standard client format of its route. */
export type OperationName = keyof OperationRequests;

/** Per-channel upstream timeouts, from the channel's `timeouts` in the config. */
export interface ChannelTimeouts {
  /** Establishing the connection. */
  connectMilliseconds: number;
  /** From sending the request to the response headers. */
  firstByteMilliseconds: number;
  /** The longest silence between two body chunks. */
  idleMilliseconds: number;
  /** The whole call, body included. */
  totalMilliseconds: number;
}

/** The channel a call goes to: one `providers[]` entry of the config. */
export interface ChannelContext {
  name: string;
  /** The upstream origin and optional prefix, without a trailing slash. */
  baseUrl: string;
  /** This call's key; rotated when the channel has several. */
  apiKey: string;
  timeouts: ChannelTimeouts;
}

/** One call of an operation on one channel. */
export interface OperationCall<Request, Options = unknown> {
  /**
   * The request: what the plugin's `prepare` made of it (version 2), else the validated
   * client request in the route's standard format.
   */
  request: Request;
  /** The model the client asked for. */
  model: string;
  /** The model to ask the upstream for, after the channel's `model_map`. */
  upstreamModel: string;
  /** Whether the client asked for a stream. */
  stream: boolean;
  channel: ChannelContext;
  /** The channel's `options`, as the plugin's schema parsed them. */
  options: Options;
  /** Aborted when the client goes away or the call times out; pass it to every upstream request. */
  signal: AbortSignal;
  /** The gateway's id for the client request, for logs and fallback response ids. */
  requestId: string;
}

/** A complete answer in the client's format. */
export interface JsonResult {
  kind: 'json';
  /** The client-format body. A string is sent as it is (already serialized JSON, or text of `contentType`). */
  body: unknown;
  usage: Usage;
  /** Defaults to 200. */
  status?: number;
  /** Defaults to `application/json`; a transcript in `srt` is `text/plain`, for example. */
  contentType?: string;
  /** A key a later request may name to come back to this channel, such as a Responses id. */
  affinityKey?: string;
}

/** An answer of raw bytes (synthesized speech) passed through to the client as they arrive. */
export interface BytesResult {
  kind: 'bytes';
  body: UpstreamBody;
  contentType: string;
  /** Known before the bytes are read (speech is billed by the input's characters). */
  usage: Usage;
}

/** A streamed answer: the unread upstream body and a decoder that translates it frame by frame. */
export interface StreamResult {
  kind: 'stream';
  body: UpstreamBody;
  decoder: StreamDecoder;
  /** How the upstream body is framed; `sse` is the only framing so far. */
  framing: 'sse';
}

/** An upstream accepted a long-running task (`video.submit`); core keeps the record and polls it. */
export interface TaskAccepted {
  kind: 'task';
  /** What the provider needs to ask about the task later (an upstream task id, an operation name…). Opaque to core. */
  handle: string;
  /** What the task will cost when it succeeds (seconds and resolution, or one call); reserved now. */
  usage: Usage;
  /** The status this family's clients expect for a finished task; `succeeded` unless set (the sdx-2 models say `completed`). */
  succeededStatus?: string;
  /** Fields of the submission to show back on the task, such as `seconds` and `size`. */
  details?: Record<string, string | number | boolean>;
}

/** The states every upstream's task states map onto. */
export type TaskStatus = 'queued' | 'in_progress' | 'succeeded' | 'failed';

/** How a task is doing upstream (`video.status`). */
export interface TaskProgress {
  kind: 'task-progress';
  status: TaskStatus;
  /** Percent done, when the upstream says. */
  progress?: number;
  /** The video's address once it succeeded. */
  url?: string;
  /** Why it failed: a numeric code (the upstream's, or an HTTP-like one), the message, and the upstream's own code name when it has one. */
  error?: { code: number; message: string; type?: string };
  /** What the finished task cost, when the upstream reports it; otherwise the usage from the submit is billed. */
  usage?: Usage;
  /** More fields to show on the task from now on, such as the address of its last frame. */
  details?: Record<string, string | number | boolean>;
}

/** What an operation handler returns. */
export type OperationResult = JsonResult | StreamResult | BytesResult | TaskAccepted | TaskProgress;

/** Implements one operation; throws a {@link GatewayError} (retryable or not) when it fails. */
export type OperationHandler<Request, Options = unknown> = (call: OperationCall<Request, Options>) => Promise<OperationResult>;

/**
 * What a plugin's `prepare` makes of each operation's client request, by operation: a
 * checked, normalized plan. An operation left out receives the client request itself.
 */
export type PreparedRequests = { [Name in OperationName]?: unknown };

/** What an operation's estimate and handler receive: its prepared request, or the validated client request when the plugin prepares none. */
export type RequestOf<Prepared extends PreparedRequests, Name extends OperationName> = Name extends keyof Prepared
  ? Exclude<Prepared[Name], undefined>
  : OperationRequests[Name];

/** What a provider instance offers: a handler per operation it implements. */
export interface Provider<Options = unknown, Prepared extends PreparedRequests = {}> {
  operations: { [Name in OperationName]?: OperationHandler<RequestOf<Prepared, Name>, Options> };
  /**
   * The usage to reserve quota by before calling an operation, when only the family knows it
   * (a video's seconds and resolution live in family-specific fields). Without one, the
   * route's estimate is used. A version 1 plugin also refuses here (a 400) a request the
   * family cannot accept; a version 2 plugin does that in `prepare`.
   */
  estimate?: { [Name in OperationName]?: (request: RequestOf<Prepared, Name>) => Usage };
  /**
   * Operations the family offers but this channel's options leave out, each with what the
   * operator must set to enable it (`"options.assets (the asset API's address and keys)"`).
   * A request that only such a channel could serve answers 501 naming the channel and this
   * text, instead of "no channel serves the model", which would send the operator looking in
   * the wrong place.
   */
  unavailable?: { [Name in OperationName]?: string };
  /** Called once when the gateway stops. */
  close?(): Promise<void>;
}

/**
 * A readable upstream body. Always consume it: read it, or `dump()` it. `text()` and `json()`
 * hold it whole, so they are bounded by the channel's `max_response_mb` (502
 * `upstream_response_too_large` past it); iterating it is not, for streams and relayed bytes.
 */
export interface UpstreamBody extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
  json(): Promise<unknown>;
  dump(): Promise<void>;
}

/** An upstream response whose headers have arrived. */
export interface UpstreamResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/** One upstream request. */
export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal: AbortSignal;
  timeouts: ChannelTimeouts;
  /**
   * The most the answer's `text()` and `json()` hold, in bytes: past it they fail with 502
   * `upstream_response_too_large` and the connection is dropped. Iterating the body is not
   * bounded (a stream, relayed bytes). The host sets the channel's `max_response_mb` when a
   * provider leaves it out.
   */
  maxResponseBytes?: number;
}

/** The gateway's shared upstream client. Connect errors and timeouts reject with a retryable gateway error. */
export interface UpstreamHttp {
  request(request: UpstreamRequest): Promise<UpstreamResponse>;
}

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

/** A namespaced key-value store lent to a plugin. */
export interface KeyValueStore {
  get<Value>(key: string): Promise<Value | undefined>;
  set<Value>(key: string, value: Value, ttlMilliseconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The logger lent to a plugin. */
export interface ProviderLogger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/** What core lends a plugin. No fastify, no dependency injection. */
export interface ProviderHost {
  http: UpstreamHttp;
  media: MediaFetcher;
  logger: ProviderLogger;
  /** A key-value store under the given namespace (no `:` in it), private to this plugin. */
  keyValueStore(namespace: string): KeyValueStore;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** What every version of the plugin contract has. */
interface ProviderPluginBase<Options, Prepared extends PreparedRequests> {
  /** The family name, e.g. `gx`. */
  readonly name: string;
  /** Validates each channel's `options` block. */
  readonly options: z.ZodType<Options>;
  /**
   * The `max_response_mb` of this family's channels when their config sets none: the largest
   * answer the family can legitimately send, in MiB, for a family whose answers can outgrow
   * the gateway's 64 MiB (several images as base64). A channel's own key wins.
   */
  readonly maxResponseMb?: number;
  /** Called once per channel when the gateway starts. */
  create(options: Options, host: ProviderHost): Provider<Options, Prepared> | Promise<Provider<Options, Prepared>>;
}

/** A plugin of the first contract: its estimates and handlers receive the validated client request. Still loaded as it is. */
export interface ProviderPluginVersion1<Options = unknown> extends ProviderPluginBase<Options, {}> {
  readonly apiVersion: 1;
}

/** A plugin of the current contract, which may prepare each operation's request once. */
export interface ProviderPluginVersion2<Options = unknown, Prepared extends PreparedRequests = {}> extends ProviderPluginBase<Options, Prepared> {
  readonly apiVersion: 2;
  /**
   * Checks and normalizes an operation's validated client request once, before any quota
   * is touched: throw `invalidRequest(message, { param })` to refuse it. What it returns is
   * what the operation's `estimate` and handler receive as `request`, on every channel of
   * this plugin the request tries (failover calls it again only for another plugin's
   * channel), so nothing is parsed twice. It belongs to the plugin, not to a channel: it
   * sees no options and no host, and does no I/O (media a family fetches is fetched by the
   * handler, after the reservation; see `OncePerRequest` to fetch it once across channels).
   */
  readonly prepare?: { readonly [Name in keyof Prepared & OperationName]: (request: OperationRequests[Name]) => Prepared[Name] };
}

/**
 * What a provider module default-exports, checked when the gateway starts: a plugin of
 * contract version 2 (the current one) or 1.
 */
export type ProviderPlugin<Options = unknown, Prepared extends PreparedRequests = {}> = ProviderPluginVersion1<Options> | ProviderPluginVersion2<Options, Prepared>;

/** Identity helper that types a plugin definition of version 2; `Prepared` names what its `prepare` makes of each operation's request. */
export function defineProvider<Options, Prepared extends PreparedRequests = {}>(plugin: ProviderPluginVersion2<Options, Prepared>): ProviderPluginVersion2<Options, Prepared>;
/** Identity helper that types a plugin definition of version 1. */
export function defineProvider<Options>(plugin: ProviderPluginVersion1<Options>): ProviderPluginVersion1<Options>;
export function defineProvider(plugin: ProviderPlugin): ProviderPlugin {
  return plugin;
}
