import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** A dsr channel's `options`. */
export const dsrOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` and `/images/generations`. Ark's runtime API
   * lives under `/api/v3` on both sites (reference/upstreams.md §3.1), so `base_url` is the
   * bare origin, e.g. `https://ark.cn-beijing.volces.com`.
   */
  path_prefix: pathPrefixOption('/api/v3'),
});

export type DsrOptions = z.output<typeof dsrOptionsSchema>;
