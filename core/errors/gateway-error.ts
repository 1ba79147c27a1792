import { clipped } from './client-text.js';
import type { GatewayErrorCode, UpstreamErrorCode } from './error-code-registry.js';

const brand = Symbol.for('model-gateway.error');

/** A field path is short; a longer `param` came from a client's own key and is cut. */
const maxParamCharacters = 200;

/** Options shared by every {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** The request field the error is about, when there is one (`param` in the OpenAI shape). */
  param?: string;
  /** What caused this error; kept for logs, never sent to a client. */
  cause?: unknown;
  /** Extra response headers, such as `retry-after`. */
  headers?: Record<string, string>;
  /**
   * For failures of an upstream call: true when another channel may succeed where this one
   * failed (connect errors, timeouts, 429, 5xx, an error frame before any content).
   */
  retryable?: boolean;
  /**
   * For failures of an upstream call: whose fault the failure is, for the channel's circuit.
   * `channel` (the default of a retryable error): the channel failed, which counts toward
   * opening its circuit. `request` (the default otherwise): the channel works, but not for
   * what this request asked of it (a model the upstream does not know, on a channel serving a
   * pattern); it never counts toward the circuit, and when `retryable` the request is still
   * tried on the next channel. Made by the constructors of `error-codes.ts`, not by hand.
   */
  fault?: UpstreamFault;
  /**
   * The upstream's own words, when the client's message leaves them out on purpose (a refused
   * channel key: "API key not valid" would send a client looking at its own key). For the
   * operator (the channel test), never sent to a client.
   */
  upstreamMessage?: string;
}

/** Whose fault a failed upstream call is; see {@link GatewayErrorOptions.fault}. */
export type UpstreamFault = 'channel' | 'request';

/**
 * The one error type the gateway throws on purpose. It carries a stable `code`, an HTTP
 * status and a message safe to show a client; each surface formats it in its own dialect.
 * Branded with a global symbol so a plugin bundling its own copy of core is still recognized.
 */
export class GatewayError extends Error {
  readonly [brand] = true;
  /** A code of the registry (`error-code-registry.ts`), or an upstream's own passed through. */
  readonly code: GatewayErrorCode | UpstreamErrorCode;
  readonly statusCode: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  readonly retryable: boolean;
  readonly fault: UpstreamFault;
  readonly upstreamMessage: string | undefined;

  constructor(statusCode: number, code: GatewayErrorCode | UpstreamErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.statusCode = statusCode;
    this.code = code;
    this.param = options.param === undefined ? undefined : clipped(options.param, maxParamCharacters);
    this.headers = options.headers ?? {};
    this.retryable = options.retryable ?? false;
    this.fault = options.fault ?? (this.retryable ? 'channel' : 'request');
    this.upstreamMessage = options.upstreamMessage;
  }

  /** True for any gateway error, whichever copy of core made it. */
  static is(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
