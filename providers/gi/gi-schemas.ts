import { z } from 'zod';
import { openAiTokenUsageSchema } from '../../core/index.js';

// Loose on purpose: the answer goes to the client as the upstream wrote it, so only what the
// gateway reads is checked and everything else travels untouched.

/** What the gateway reads of an images answer: the images and the usage. */
export const giImagesResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ b64_json: z.string().nullish(), url: z.string().nullish() }).nullable()).nullish(),
  usage: openAiTokenUsageSchema.nullish(),
});
