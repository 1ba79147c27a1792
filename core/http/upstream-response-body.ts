import type { Dispatcher } from 'undici';
import type { UpstreamBody } from '../contracts/provider/upstream-http.js';
import { upstreamResponseTooLarge } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { readableChunks } from './readable-chunks.js';
import { readWholeBody } from './read-whole-body.js';
import { parseUpstreamJson } from './upstream-json.js';

/** undici's response body: a Node `Readable` with `text()`, `json()` and `dump()`. */
export type UndiciBody = Dispatcher.ResponseData['body'];

/** How much of a body `text()` and `json()` may hold. */
export interface WholeBodyLimit {
  /** The channel's `max_response_mb`, in bytes. */
  maxBytes: number;
  /** The answer's `Content-Length`, when it declared one. */
  declaredBytes?: number;
}

/**
 * An undici response body whose failures surface as gateway errors: reading it (by
 * iteration, `text()`, `json()` or `dump()`) rejects with what `mapError` makes of undici's
 * error, so a stalled stream becomes an idle timeout and an abort a 499. Breaking out of
 * the iteration destroys the body and frees the connection.
 *
 * `text()` and `json()`, which hold the body whole, hold at most `limit.maxBytes`: a larger
 * answer (refused from its `Content-Length` before any byte is read, when it declares one)
 * fails with 502 `upstream_response_too_large` and its connection is dropped. Iterating is
 * not bounded: a stream or a relayed video passes through without being held.
 */
export class UpstreamResponseBody implements UpstreamBody {
  readonly #body: UndiciBody;
  readonly #mapError: (error: unknown) => unknown;
  readonly #limit: WholeBodyLimit;

  constructor(body: UndiciBody, mapError: (error: unknown) => unknown, limit: WholeBodyLimit) {
    this.#body = body;
    this.#mapError = mapError;
    this.#limit = limit;
  }

  /** The most `text()` and `json()` hold, for a body that wraps this one (`primeUpstreamBody`). */
  get maxWholeBytes(): number {
    return this.#limit.maxBytes;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    // Taken by `data` events rather than through Node's async iterator: see readableChunks.
    return readableChunks(this.#body, this.#mapError);
  }

  async text(): Promise<string> {
    const { maxBytes, declaredBytes } = this.#limit;
    // Destroyed, not drained: reading the rest only to throw it away would let the upstream
    // keep the request busy for as long as it likes.
    const abandon = async () => void this.#body.destroy();
    if (declaredBytes !== undefined && declaredBytes > maxBytes) {
      await abandon();
      throw upstreamResponseTooLarge(maxBytes);
    }
    return readWholeBody(this[Symbol.asyncIterator](), maxBytes, abandon);
  }

  async json(): Promise<unknown> {
    const text = await this.text();
    try {
      return parseUpstreamJson(text);
    } catch (error) {
      throw new GatewayError(502, 'upstream_protocol_error', 'the upstream answered a body that is not valid JSON', { cause: error, retryable: true });
    }
  }

  dump(): Promise<void> {
    return this.#body.dump().then(
      () => undefined,
      (error: unknown) => {
        throw this.#mapError(error);
      },
    );
  }
}
