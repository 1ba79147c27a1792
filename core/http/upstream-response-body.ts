import type { Dispatcher } from 'undici';
import type { UpstreamBody } from '../contracts/provider-plugin.js';
import { GatewayError } from '../errors/gateway-error.js';
import { parseUpstreamJson } from './upstream-json.js';

/** undici's response body: a Node `Readable` with `text()`, `json()` and `dump()`. */
export type UndiciBody = Dispatcher.ResponseData['body'];

/**
 * An undici response body whose failures surface as gateway errors: reading it (by
 * iteration, `text()`, `json()` or `dump()`) rejects with what `mapError` makes of undici's
 * error, so a stalled stream becomes an idle timeout and an abort a 499. Breaking out of
 * the iteration destroys the body and frees the connection.
 */
export class UpstreamResponseBody implements UpstreamBody {
  readonly #body: UndiciBody;
  readonly #mapError: (error: unknown) => unknown;

  constructor(body: UndiciBody, mapError: (error: unknown) => unknown) {
    this.#body = body;
    this.#mapError = mapError;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const iterator: AsyncIterator<Uint8Array> = this.#body[Symbol.asyncIterator]();
    const rethrow = (error: unknown): never => {
      throw this.#mapError(error);
    };
    return {
      next: () => iterator.next().then(undefined, rethrow),
      return: async (value?: unknown) => (iterator.return === undefined ? { done: true, value: undefined } : iterator.return(value)),
    };
  }

  text(): Promise<string> {
    return this.#body.text().then(undefined, (error: unknown) => {
      throw this.#mapError(error);
    });
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
