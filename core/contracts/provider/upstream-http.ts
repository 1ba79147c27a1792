import type { ChannelTimeouts } from './operation-call.js';

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
