import { z } from 'zod';

/** A dashscope-video channel's `options`, the same for every family it serves. */
export const dashScopeVideoOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` (the DashScope origin, e.g.
   * `https://dashscope-intl.aliyuncs.com`) and `/services/...` and `/tasks/...` (upstreams.md §4.1).
   */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /api/v1, starting with a slash and without a trailing one' })
    .default('/api/v1'),
});

export type DashScopeVideoOptions = z.output<typeof dashScopeVideoOptionsSchema>;
