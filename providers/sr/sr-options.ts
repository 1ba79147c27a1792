import { z } from 'zod';

/** An sr channel's `options`. */
export const srOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/videos`. */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /v1, starting with a slash and without a trailing one' })
    .default('/v1'),
});

export type SrOptions = z.output<typeof srOptionsSchema>;
