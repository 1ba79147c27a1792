import { z } from 'zod';

/** A gx channel's `options`. */
export const gxOptionsSchema = z.strictObject({
  /** The API version segment of the upstream paths. */
  api_version: z.string().regex(/^v[0-9a-z]+$/, { error: 'expected a version such as v1beta' }).default('v1beta'),
});

export type GxOptions = z.output<typeof gxOptionsSchema>;
