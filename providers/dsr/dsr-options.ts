import { z } from 'zod';

/** A dsr channel's `options`. */
export const dsrOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` and `/images/generations`. Ark's runtime API
   * lives under `/api/v3` on both sites (reference/upstreams.md §3.1), so `base_url` is the
   * bare origin, e.g. `https://ark.cn-beijing.volces.com`.
   */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /api/v3, starting with a slash and without a trailing one' })
    .default('/api/v3'),
});

export type DsrOptions = z.output<typeof dsrOptionsSchema>;
