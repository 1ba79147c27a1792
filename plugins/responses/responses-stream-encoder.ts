import type { StreamEncoder } from '../../core/streaming/stream-encoder.js';
import { encodeSseEvent } from '../../core/streaming/sse-encoder.js';
import { openAiErrorObject } from '../errors/error-dialects.js';

/**
 * A Responses stream as SSE with an `event:` and a `data:` line per event (upstreams.md
 * §2.3). An error after the stream started goes in-band as OpenAI's own `error` event, whose
 * `sequence_number` follows the last event sent: the events pass through one for one and
 * number from 0, so the count of events written is the next number. One encoder per request.
 */
export function createResponsesStreamEncoder(): StreamEncoder {
  let events = 0;
  return {
    contentType: 'text/event-stream; charset=utf-8',
    keepalive: ': ping\n\n',
    start: () => '',
    event: (output) => {
      events += 1;
      return encodeSseEvent(output.data, output.event);
    },
    error: (error) => encodeSseEvent(JSON.stringify({ type: 'error', sequence_number: events, error: openAiErrorObject(error) }), 'error'),
    end: () => '',
  };
}
