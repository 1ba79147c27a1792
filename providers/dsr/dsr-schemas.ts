import { z } from 'zod';
import { arkErrorDetailSchema } from '../../core/index.js';

// Lenient: only what the gateway reads is checked; every other field travels untouched
// (reference/upstreams.md §3.2; fixture ark-seedream-image-responses.json).

const count = z.number().nullish();

/** One `data[]` item: `url` or `b64_json` plus `size`, or an `error` (Ark's error object) for an image of a group that failed. */
export const dsrImageItemSchema = z.looseObject({
  url: z.string().nullish(),
  b64_json: z.string().nullish(),
  size: z.string().nullish(),
  error: arkErrorDetailSchema.nullish(),
});

export type DsrImageItem = z.output<typeof dsrImageItemSchema>;

/** The `usage` of an images response: no input count (upstreams.md §3.2). */
export const dsrUsageSchema = z.looseObject({
  generated_images: count,
  output_tokens: count,
  total_tokens: count,
});

export type DsrUsage = z.output<typeof dsrUsageSchema>;

/** A non-stream `POST /images/generations` answer. */
export const dsrImagesResponseSchema = z.looseObject({
  model: z.string().nullish(),
  created: z.number().nullish(),
  data: z.array(dsrImageItemSchema).nullish(),
  usage: dsrUsageSchema.nullish(),
  error: arkErrorDetailSchema.nullish(),
});
