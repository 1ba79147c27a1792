import { type EmbeddingsRequest, type NativeEmbedRequest, type TranslatedRequest } from '../../core/index.js';
import { fieldError } from '../../core/kit/index.js';

/**
 * The most contents one `batchEmbedContents` call takes: the native API refuses more
 * ("BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch"), whatever
 * the gateway's own native route lets through.
 */
export const maxBatchEmbedContents = 100;

/**
 * The texts of an embeddings `input`, in order. Token arrays are a 400: the native family
 * embeds text, and token ids of another tokenizer cannot be turned back into it.
 */
export function embeddingTexts(input: EmbeddingsRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  if (input.every((entry): entry is string => typeof entry === 'string')) return input;
  throw fieldError('input', 'token arrays cannot be embedded by this model, which reads text; send the text itself, as a string or an array of strings');
}

/**
 * The native call for an OpenAI embeddings request: one text to `embedContent`, several to
 * `batchEmbedContents` (at most {@link maxBatchEmbedContents}), `dimensions` as each content's
 * `outputDimensionality`. The body names no model: the provider calls the channel's own.
 * `user` is left out, the native API having no such field; `encoding_format` shapes the answer.
 */
export function toNativeEmbedRequest(request: EmbeddingsRequest): TranslatedRequest<'native.embed' | 'native.batchEmbed'> {
  const texts = embeddingTexts(request.input);
  const content = (text: string): NativeEmbedRequest => ({
    content: { parts: [{ text }] },
    ...(request.dimensions === undefined ? {} : { outputDimensionality: request.dimensions }),
  });
  const [only] = texts;
  if (texts.length === 1 && only !== undefined) return { operation: 'native.embed', request: content(only) };
  if (texts.length > maxBatchEmbedContents) {
    throw fieldError('input', `at most ${maxBatchEmbedContents} texts per request on this model, which embeds them in one native batch; got ${texts.length}: split the input into several requests`);
  }
  return { operation: 'native.batchEmbed', request: { requests: texts.map(content) } };
}
