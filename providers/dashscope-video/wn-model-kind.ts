import { invalidRequest } from '../../core/index.js';
import type { VideoTier } from './dashscope-video-job.js';

/** Which rules a wn model follows: the flat wn2.5 fields or the nested wn2.7 ones, and its mode. */
export type WnModelKind = { family: 'wn2.5'; mode: 't2v' | 'i2v' } | { family: 'wn2.7'; mode: 't2v' | 'i2v' | 'r2v' };

/** The tiers each wn version makes (spec part 2: wn2.5 480p/720p/1080p, wn2.7 720P/1080P). */
export const wnTiers: Record<WnModelKind['family'], readonly VideoTier[]> = { 'wn2.5': ['480p', '720p', '1080p'], 'wn2.7': ['720p', '1080p'] };

/**
 * The rules of a client model id, read from the id itself (spec part 2's ids:
 * `wn2.5-t2v-preview`, `wn2.5-i2v-preview`, `wn2.7-t2v-2026-04-25`, `wn2.7-i2v-2026-04-25`,
 * `wn2.7-r2v`; later dated builds of the same version and mode follow the same rules).
 */
export function wnModelKind(model: string): WnModelKind | undefined {
  const match = /^wn(2\.5|2\.7)-(t2v|i2v|r2v)(?:-|$)/.exec(model);
  if (match === null) return undefined;
  const [, version, mode] = match;
  if (version === '2.5') return mode === 'r2v' ? undefined : { family: 'wn2.5', mode: mode as 't2v' | 'i2v' };
  return { family: 'wn2.7', mode: mode as 't2v' | 'i2v' | 'r2v' };
}

/** {@link wnModelKind}, or the 400 for a wn model id without rules. */
export function requireWnModelKind(model: string): WnModelKind {
  const kind = wnModelKind(model);
  if (kind === undefined) {
    throw invalidRequest(
      `model: "${model}" is not a wn video model; the wn family is wn2.5-t2v-*, wn2.5-i2v-*, wn2.7-t2v-*, wn2.7-i2v-* and wn2.7-r2v*`,
      { param: 'model' },
    );
  }
  return kind;
}
