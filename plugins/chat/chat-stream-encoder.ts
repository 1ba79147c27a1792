import type { StreamEncoder } from '../../core/streaming/stream-encoder.js';
import { encodeSseEvent } from '../../core/streaming/sse-encoder.js';
import { formatError } from '../errors/error-dialects.js';

/** Chat completions stream as SSE `data:` lines; errors after the start go in-band in the OpenAI error shape. */
export const chatStreamEncoder: StreamEncoder = {
  contentType: 'text/event-stream; charset=utf-8',
  keepalive: ': ping\n\n',
  start: () => '',
  event: (output) => encodeSseEvent(output.data, output.event),
  error: (error) => encodeSseEvent(JSON.stringify(formatError('openai', error))),
  end: () => '',
};
