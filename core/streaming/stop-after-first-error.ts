import type { GatewayError } from '../errors/gateway-error.js';
import type { StreamDecoder, StreamOutput } from '../contracts/stream-decoder.js';

/** The outputs of a decoder that fails: one `error` output. */
export const streamFailure = (error: GatewayError): StreamOutput[] => [{ type: 'error', error }];

/**
 * `decoder`, silent from its first `error` output on: later frames and the end yield
 * nothing. An upstream stream is over for the client once it failed, so a provider's decoder
 * reports the failure (see {@link streamFailure}) and needs no flag of its own to stay quiet.
 */
export function stopAfterFirstError(decoder: StreamDecoder): StreamDecoder {
  let failed = false;
  const watch = (outputs: StreamOutput[]): StreamOutput[] => {
    if (outputs.some((output) => output.type === 'error')) failed = true;
    return outputs;
  };
  return {
    push: (frame) => (failed ? [] : watch(decoder.push(frame))),
    end: () => (failed ? [] : watch(decoder.end())),
  };
}
