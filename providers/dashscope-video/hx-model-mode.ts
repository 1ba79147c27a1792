import { invalidRequest } from '../../core/index.js';
import type { VideoTier } from './dashscope-video-job.js';

/** What an hx model makes its video from: text, a first frame, or reference images. */
export type HxMode = 't2v' | 'i2v' | 'r2v';

/** Every tier hx makes (spec part 2: `720P` or `1080P`). */
export const hxTiers: readonly VideoTier[] = ['720p', '1080p'];

/**
 * The mode of a client model id, read from the id itself (spec part 2: `hx-1.0-t2v`,
 * `hx-1.0-i2v`, `hx-1.0-r2v`; a later `hx-1.x-*` follows the same rules, as HappyHorse
 * 1.1 does upstream, upstreams.md §4.4), or the 400 for an id without hx rules.
 */
export function hxModelMode(model: string): HxMode {
  const mode = /^hx-\d+\.\d+-(t2v|i2v|r2v)(?:-|$)/.exec(model)?.[1];
  if (mode === undefined) throw invalidRequest(`model: "${model}" is not an hx video model; the hx family is hx-1.0-t2v, hx-1.0-i2v and hx-1.0-r2v`, { param: 'model' });
  return mode as HxMode;
}
