import { z } from 'zod';
import { googleRpcStatusSchema } from '../../core/index.js';

// Lenient on purpose: only what the gateway reads, every field optional, unknown ones kept
// (upstreams.md §1.11 marks much of the operation shape [M]; fixture gemini-veo-operation.json).

const sampleSchema = z.looseObject({
  video: z.looseObject({ uri: z.string().nullish() }).nullish(),
});

/** A long-running operation, as the submit and every poll answer it. */
export const voOperationSchema = z.looseObject({
  name: z.string().nullish(),
  /** Missing means not done (upstreams.md §1.11). */
  done: z.boolean().nullish(),
  error: googleRpcStatusSchema.nullish(),
  response: z
    .looseObject({
      generateVideoResponse: z
        .looseObject({
          generatedSamples: z.array(sampleSchema).nullish(),
          raiMediaFilteredCount: z.number().nullish(),
          raiMediaFilteredReasons: z.array(z.string()).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
