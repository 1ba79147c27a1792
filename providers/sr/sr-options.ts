import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** An sr channel's `options`. */
export const srOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/videos`. */
  path_prefix: pathPrefixOption('/v1'),
});

export type SrOptions = z.output<typeof srOptionsSchema>;
