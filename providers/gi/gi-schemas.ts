import { z } from 'zod';

// Loose on purpose: the answer goes to the client as the upstream wrote it, so only what the
// gateway reads is checked and everything else travels untouched.

const count = z.number().nullish();

/** The `usage` of a gpt-image answer (upstreams.md §2.7); the details are optional. */
export const giUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  input_tokens_details: z.looseObject({ text_tokens: count, image_tokens: count }).nullish(),
  output_tokens_details: z.looseObject({ text_tokens: count, image_tokens: count }).nullish(),
});

export type GiUsage = z.output<typeof giUsageSchema>;

/** What the gateway reads of an images answer: the images and the usage. */
export const giImagesResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ b64_json: z.string().nullish(), url: z.string().nullish() }).nullable()).nullish(),
  usage: giUsageSchema.nullish(),
});
