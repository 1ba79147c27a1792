import { z } from 'zod';

/** The most entries an embeddings `input` array may hold, as OpenAI's API allows. */
export const maxEmbeddingInputs = 2048;

const text = z.string().min(1);
const tokens = z.array(z.number().int().min(0)).min(1);

/**
 * `POST /v1/embeddings` in the OpenAI format (upstreams.md §2.8), the standard format of the
 * `embeddings` operation. Strict: a misspelt field is a 400. `input` takes every shape OpenAI's
 * API takes, token arrays included; whether a family can embed tokens is for its translator to
 * say.
 */
export const embeddingsRequestSchema = z.strictObject(
  {
    model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
    input: z.union([text, z.array(text).min(1).max(maxEmbeddingInputs), tokens, z.array(tokens).min(1).max(maxEmbeddingInputs)], {
      error: `expected a non-empty string, an array of 1 to ${maxEmbeddingInputs} non-empty strings, an array of token ids, or an array of 1 to ${maxEmbeddingInputs} token-id arrays`,
    }),
    encoding_format: z.enum(['float', 'base64'], { error: 'expected float or base64' }).optional(),
    dimensions: z.number({ error: 'expected a whole number of at least 1' }).int({ error: 'expected a whole number of at least 1' }).min(1, { error: 'expected at least 1' }).optional(),
    user: z.string({ error: 'expected a string' }).optional(),
  },
  { error: 'expected a JSON object' },
);

/** An embeddings request as handlers receive it. */
export type EmbeddingsRequest = z.output<typeof embeddingsRequestSchema>;
