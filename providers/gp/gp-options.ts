import { z } from 'zod';

/** A gp channel's `options`. */
export const gpOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/chat/completions`. */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /v1, starting with a slash and without a trailing one' })
    .default('/v1'),
});

export type GpOptions = z.output<typeof gpOptionsSchema>;
