import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** A dashscope-video channel's `options`, the same for every family it serves. */
export const dashScopeVideoOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` (the DashScope origin, e.g.
   * `https://dashscope-intl.aliyuncs.com`) and `/services/...` and `/tasks/...` (upstreams.md §4.1).
   */
  path_prefix: pathPrefixOption('/api/v1'),
});

export type DashScopeVideoOptions = z.output<typeof dashScopeVideoOptionsSchema>;
