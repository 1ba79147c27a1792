import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

// The stable codes of an upstream answer the gateway cannot use, in one place for every
// provider. Each is the channel's fault, so another channel may do better.

/**
 * 502 `upstream_invalid_response` in words of the provider's own, for a malformed answer the
 * wording of `invalidUpstreamAnswer` does not fit (a redirect without a Location). Retryable
 * on another channel by default; `retryable: false` where a retry could repeat a side effect.
 */
export function malformedUpstreamAnswer(message: string, options: Pick<GatewayErrorOptions, 'cause' | 'retryable'> = {}): GatewayError {
  return new GatewayError(502, 'upstream_invalid_response', message, { cause: options.cause, retryable: options.retryable ?? true });
}

/** 502 `empty_response`: the upstream answered, but without any output (`message` says what was missing). Nothing is billed. */
export const emptyUpstreamAnswer = (message: string): GatewayError => new GatewayError(502, 'empty_response', message, { retryable: true });

/** 502 `upstream_stream_truncated`: the stream ended before its end marker, which the client must not mistake for a complete answer. */
export const upstreamStreamTruncated = (): GatewayError =>
  new GatewayError(502, 'upstream_stream_truncated', 'the upstream stream ended before the answer was finished', { retryable: true });
