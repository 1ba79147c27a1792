import type { UpstreamResponse } from '../../core/index.js';

/** An upstream answer as a provider receives it, with `body` as its text (objects as JSON). */
export function upstreamAnswer(statusCode: number, body: unknown = '', headers: Record<string, string> = {}): UpstreamResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const bytes = Buffer.from(text);
  return {
    statusCode,
    headers,
    body: {
      async *[Symbol.asyncIterator]() {
        yield bytes;
      },
      text: async () => text,
      json: async () => JSON.parse(text),
      dump: async () => {},
    },
  };
}
