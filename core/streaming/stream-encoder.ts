import type { StreamOutput } from '../contracts/stream-decoder.js';
import type { GatewayError } from '../errors/gateway-error.js';

/** How a route writes a stream to its client. Synchronous: each call returns the text to write. */
export interface StreamEncoder {
  /** The response's content type. */
  readonly contentType: string;
  /** What to write while idle, or undefined when this format has no keepalive. */
  readonly keepalive: string | undefined;
  /** Written before the first event. */
  start(): string;
  /** One event from the decoder. */
  event(output: Extract<StreamOutput, { type: 'event' }>): string;
  /** An error after the stream has started, written in-band before the end. */
  error(error: GatewayError): string;
  /** Written after the last event. */
  end(): string;
}
