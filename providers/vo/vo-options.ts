import { z } from 'zod';

/** A vo channel's `options`. */
export const voOptionsSchema = z.strictObject({
  /** The API version segment of the upstream paths (`{base_url}/{api_version}/models/...`). */
  api_version: z.string().regex(/^v[0-9a-z]+$/, { error: 'expected a version such as v1beta' }).default('v1beta'),
});

export type VoOptions = z.output<typeof voOptionsSchema>;
