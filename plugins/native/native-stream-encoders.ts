import type { StreamEncoder } from '../../core/streaming/stream-encoder.js';
import { formatError } from '../errors/error-dialects.js';

// The native stream is re-emitted the way the upstream frames it: `data: <json>` and a CRLF
// blank line, no [DONE] (reference/upstreams.md §1.4, fixture gemini-stream-single-chunk.raw.sse).
// No keepalive comments: native clients split on blank lines and parse every data line.

/** `:streamGenerateContent?alt=sse`. */
export const nativeSseEncoder: StreamEncoder = {
  contentType: 'text/event-stream',
  keepalive: undefined,
  start: () => '',
  event: (output) => `data: ${output.data}\r\n\r\n`,
  error: (error) => `data: ${JSON.stringify(formatError('native', error))}\r\n\r\n`,
  end: () => '',
};

/** `:streamGenerateContent` without `alt=sse`: one JSON array, written element by element. */
export function createNativeJsonArrayEncoder(): StreamEncoder {
  let first = true;
  const separator = () => {
    const text = first ? '' : ',\r\n';
    first = false;
    return text;
  };
  return {
    contentType: 'application/json; charset=utf-8',
    keepalive: undefined,
    start: () => '[',
    event: (output) => separator() + output.data,
    // An error ends the stream (the encoder's end is not written after it), so it closes the array.
    error: (error) => `${separator()}${JSON.stringify(formatError('native', error))}]`,
    end: () => ']',
  };
}
