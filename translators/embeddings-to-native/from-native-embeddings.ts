import { z } from 'zod';
import { malformedUpstreamAnswer, type EmbeddingsRequest, type TranslationContext, type Usage } from '../../core/index.js';
import { parseUpstreamAnswer } from '../../core/kit/index.js';
import { embeddingTexts } from './to-native-embed-request.js';

// Lenient: only the vectors are read (upstreams.md §1.9); a batch answer may carry more.
const values = z.array(z.number());
const embedAnswerSchema = z.looseObject({ embedding: z.looseObject({ values }) });
const batchEmbedAnswerSchema = z.looseObject({ embeddings: z.array(z.looseObject({ values })) });

/** A vector as OpenAI's `encoding_format: "base64"` writes it: the base64 of its little-endian float32 bytes. */
export function base64Embedding(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/**
 * A native embedding answer as the OpenAI list (upstreams.md §2.8): one `embedding` object per
 * input, in order, its vector as numbers or, with `encoding_format: "base64"`, as base64;
 * `model` the model the client named; `usage.prompt_tokens` and `total_tokens` the billed
 * input tokens (an embedding has no output).
 * @throws 502 `upstream_invalid_response` for a body of another shape, or one with another
 *   number of vectors than inputs.
 */
export function fromNativeEmbeddings(
  body: unknown,
  usage: Usage,
  operation: 'native.embed' | 'native.batchEmbed',
  context: TranslationContext,
  request: EmbeddingsRequest,
): unknown {
  const vectors =
    operation === 'native.embed'
      ? [parseUpstreamAnswer(body, embedAnswerSchema, 'an embedding').embedding.values]
      : parseUpstreamAnswer(body, batchEmbedAnswerSchema, 'a batch of embeddings').embeddings.map((embedding) => embedding.values);
  const inputs = embeddingTexts(request.input).length;
  if (vectors.length !== inputs) throw malformedUpstreamAnswer(`the upstream answered ${vectors.length} embeddings for ${inputs} inputs`);
  const base64 = request.encoding_format === 'base64';
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: base64 ? base64Embedding(vector) : vector })),
    model: context.model,
    usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens },
  };
}
