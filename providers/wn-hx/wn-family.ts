import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoFamily } from './dashscope-video-family.js';
import type { DashScopeVideoJob, VideoTier } from './dashscope-video-job.js';
import { readWnFlatRequest } from './read-wn-flat-request.js';
import { readWnNestedRequest } from './read-wn-nested-request.js';

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

/**
 * Reads a wn submission by its model's rules: the flat wn2.5 fields or the nested wn2.7
 * ones. Pure and synchronous, so the estimate (before any quota is held) and the submit
 * read the request the same way; every refusal is a 400 naming the field.
 */
export function readWnVideoRequest(request: VideoSubmitRequest): DashScopeVideoJob {
  const kind = requireWnModelKind(request.model);
  return kind.family === 'wn2.5' ? readWnFlatRequest(request, kind.mode) : readWnNestedRequest(request, kind.mode);
}

/** The wn family (spec part 2): wn2.5 with flat fields, wn2.7 with the nested body, on Wan's DashScope models. */
export const wnFamily: DashScopeVideoFamily = {
  name: 'wn',
  readRequest: readWnVideoRequest,
  tiersOf: (model) => wnTiers[requireWnModelKind(model).family],
};
