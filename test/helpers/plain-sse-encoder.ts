import type { StreamEncoder } from '../../core/streaming/stream-encoder.js';

/**
 * The simplest SSE encoder a stream pump test needs: each event's data as one `data:` line, an
 * error as `{"error":"<code>"}`, `[DONE]` at the end, no keepalive. The routes' own encoders
 * are tested with their routes.
 */
export const plainSseEncoder: StreamEncoder = {
  contentType: 'text/event-stream',
  keepalive: undefined,
  start: () => '',
  event: (output) => `data: ${output.data}\n\n`,
  error: (error) => `data: {"error":"${error.code}"}\n\n`,
  end: () => 'data: [DONE]\n\n',
};
