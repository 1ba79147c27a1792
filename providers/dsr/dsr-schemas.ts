import { z } from 'zod';

// Lenient: only what the gateway reads is checked; every other field travels untouched
// (reference/upstreams.md §3.2; fixture ark-seedream-image-responses.json).

const count = z.number().nullish();

/** The `error` object of an error body, or of one failed image of a group (upstreams.md §3.1, §3.2). */
export const dsrErrorDetailSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string().nullish(),
  param: z.string().nullish(),
  type: z.string().nullish(),
});

export type DsrErrorDetail = z.output<typeof dsrErrorDetailSchema>;

/** An error body: `{"error": {code, message, param, type}}`. */
export const dsrErrorBodySchema = z.looseObject({ error: dsrErrorDetailSchema });

/** One `data[]` item: `url` or `b64_json` plus `size`, or an `error` for an image of a group that failed. */
export const dsrImageItemSchema = z.looseObject({
  url: z.string().nullish(),
  b64_json: z.string().nullish(),
  size: z.string().nullish(),
  error: dsrErrorDetailSchema.nullish(),
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
  error: dsrErrorDetailSchema.nullish(),
});
