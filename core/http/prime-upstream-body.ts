import type { UpstreamBody } from '../contracts/provider/upstream-http.js';
import { GatewayError } from '../errors/gateway-error.js';
import { defaultMaxResponseBytes, readWholeBody } from './read-whole-body.js';
import { UpstreamResponseBody } from './upstream-response-body.js';
import { parseUpstreamJson } from './upstream-json.js';

/**
 * Reads the first chunk of an upstream body before the answer is committed, and gives back
 * a body that yields that chunk and then the rest. An operation that hands raw bytes to the
 * client (speech, a video's content) commits once it returns; priming first means a
 * connection that breaks or goes silent before any byte fails here, while another channel
 * can still answer and nothing has been billed. Resolves `undefined` for an empty body.
 * Read whole (`text()`, `json()`), it holds no more than the body it wraps would.
 */
export async function primeUpstreamBody(body: UpstreamBody): Promise<UpstreamBody | undefined> {
  const maxBytes = body instanceof UpstreamResponseBody ? body.maxWholeBytes : defaultMaxResponseBytes;
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return undefined;
  let held: IteratorResult<Uint8Array> | undefined = first;
  const primed: UpstreamBody = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const next = held;
        held = undefined;
        return next === undefined ? iterator.next() : Promise.resolve(next);
      },
      return: async (value?: unknown) => {
        held = undefined;
        return iterator.return === undefined ? { done: true, value: undefined } : iterator.return(value);
      },
    }),
    text: () => {
      const chunks = primed[Symbol.asyncIterator]();
      return readWholeBody(chunks, maxBytes, async () => chunks.return?.());
    },
    json: async () => {
      const text = await primed.text();
      try {
        return parseUpstreamJson(text);
      } catch (error) {
        throw new GatewayError(502, 'upstream_protocol_error', 'the upstream answered a body that is not valid JSON', { cause: error, retryable: true });
      }
    },
    dump: async () => {
      held = undefined;
      await iterator.return?.();
    },
  };
  return primed;
}
