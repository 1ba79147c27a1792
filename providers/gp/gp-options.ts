import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** A gp channel's `options`. */
export const gpOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/chat/completions`. */
  path_prefix: pathPrefixOption('/v1'),
});

export type GpOptions = z.output<typeof gpOptionsSchema>;
