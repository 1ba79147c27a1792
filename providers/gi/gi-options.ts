import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** A gi channel's `options`. */
export const giOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/images/generations` or `/images/edits`. */
  path_prefix: pathPrefixOption('/v1'),
});

export type GiOptions = z.output<typeof giOptionsSchema>;
