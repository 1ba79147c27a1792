import { z } from 'zod';

/** The most entries an embeddings `input` array may hold, as OpenAI's API allows. */
export const maxEmbeddingInputs = 2048;

/** What an embeddings request embeds: a text, texts, a token-id array, or token-id arrays. */
export type EmbeddingsInput = string | string[] | number[] | number[][];

const isTokenId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isTokenArray = (value: unknown): value is number[] => Array.isArray(value) && value.length > 0 && value.every(isTokenId);

/** Each entry kind an `input` array may hold, and what an entry of another kind is told. */
const entryKinds = [
  { is: isText, matches: (value: unknown) => typeof value === 'string', expected: 'expected a non-empty string, as the first input is' },
  { is: isTokenId, matches: (value: unknown) => typeof value === 'number', expected: 'expected a token id (a whole number of at least 0), as the first input is' },
  { is: isTokenArray, matches: Array.isArray, expected: 'expected a non-empty array of token ids, as the first input is' },
];

/**
 * Checks an `input` array entry by entry, so a problem names its place (`input[3]`): every
 * entry of the kind the first one is. A union of the four shapes would report the shape it
 * guessed instead.
 */
function checkInputArray(input: unknown[], context: z.RefinementCtx): void {
  if (input.length === 0) return void context.addIssue({ code: 'custom', message: 'expected at least one input' });
  if (input.length > maxEmbeddingInputs) {
    return void context.addIssue({ code: 'custom', message: `expected at most ${maxEmbeddingInputs} inputs; split them into several requests` });
  }
  const kind = entryKinds.find((candidate) => candidate.matches(input[0]));
  if (kind === undefined) return void context.addIssue({ code: 'custom', path: [0], message: 'expected a string, a token id or an array of token ids' });
  const wrong = input.findIndex((entry) => !kind.is(entry));
  if (wrong >= 0) context.addIssue({ code: 'custom', path: [wrong], message: wrong === 0 ? kind.expected.replace(', as the first input is', '') : kind.expected });
}

const input = z
  .union([z.string(), z.array(z.unknown())], { error: 'expected a string, an array of strings, an array of token ids or an array of token-id arrays' })
  .superRefine((value, context) => {
    if (typeof value === 'string') {
      if (value === '') context.addIssue({ code: 'custom', message: 'must not be empty' });
    } else checkInputArray(value, context);
  })
  .transform((value) => value as EmbeddingsInput);

/**
 * `POST /v1/embeddings` in the OpenAI format (upstreams.md §2.8), the standard format of the
 * `embeddings` operation. Strict: a misspelt field is a 400. `input` takes every shape OpenAI's
 * API takes, token arrays included; whether a family can embed tokens is for its translator to
 * say.
 */
export const embeddingsRequestSchema = z.strictObject(
  {
    model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
    input,
    encoding_format: z.enum(['float', 'base64'], { error: 'expected float or base64' }).optional(),
    dimensions: z.number({ error: 'expected a whole number of at least 1' }).int({ error: 'expected a whole number of at least 1' }).min(1, { error: 'expected at least 1' }).optional(),
    user: z.string({ error: 'expected a string' }).optional(),
  },
  { error: 'expected a JSON object' },
);

/** An embeddings request as handlers receive it. */
export type EmbeddingsRequest = z.output<typeof embeddingsRequestSchema>;
