import type { OperationRequests } from '../operation-requests.js';

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
