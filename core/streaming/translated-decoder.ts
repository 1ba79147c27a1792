import type { SseFrame, StreamDecoder, StreamOutput } from '../contracts/stream-decoder.js';
import type { StreamTranslation } from '../contracts/translator.js';

/**
 * `decoder` with `translation` stacked on it: each output of the provider's decoder goes
 * through the translation, so the pump and the route's encoder see the client's format and
 * stay as they are. Only a translated stream pays for this; one a provider serves in the
 * client's own format is decoded by its decoder alone.
 */
export function translatedDecoder(decoder: StreamDecoder, translation: StreamTranslation): StreamDecoder {
  const translate = (outputs: StreamOutput[]): StreamOutput[] => {
    if (outputs.length === 0) return outputs;
    if (outputs.length === 1) return translation.push(outputs[0] as StreamOutput);
    const translated: StreamOutput[] = [];
    for (const output of outputs) translated.push(...translation.push(output));
    return translated;
  };
  return {
    push: (frame: SseFrame) => translate(decoder.push(frame)),
    end: () => {
      const last = translate(decoder.end());
      // After the served stream failed, nothing closes it: the pump ends the client's stream with the error.
      if (last.some((output) => output.type === 'error')) return last;
      const closing = translation.end();
      return last.length === 0 ? closing : [...last, ...closing];
    },
  };
}
