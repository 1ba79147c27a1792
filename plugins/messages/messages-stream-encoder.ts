import type { StreamEncoder } from '../../core/streaming/stream-encoder.js';
import { encodeSseEvent } from '../../core/streaming/sse-encoder.js';
import { formatError } from '../errors/error-dialects.js';

/**
 * A Messages stream as SSE with an `event:` and a `data:` line per event, as Anthropic's API
 * writes it: the translator names each event; the idle keepalive is Anthropic's own `ping`
 * event, which its SDK reads and skips; an error after the stream started goes in-band as
 * `event: error` with the Anthropic error body.
 */
export const messagesStreamEncoder: StreamEncoder = {
  contentType: 'text/event-stream; charset=utf-8',
  keepalive: encodeSseEvent('{"type":"ping"}', 'ping'),
  start: () => '',
  event: (output) => encodeSseEvent(output.data, output.event),
  error: (error) => encodeSseEvent(JSON.stringify(formatError('anthropic', error)), 'error'),
  end: () => '',
};
