import { z } from 'zod';

/** A gi channel's `options`. */
export const giOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/images/generations` or `/images/edits`. */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /v1, starting with a slash and without a trailing one' })
    .default('/v1'),
});

export type GiOptions = z.output<typeof giOptionsSchema>;
