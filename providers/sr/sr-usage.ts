import { videoUsage, type Usage } from '../../core/index.js';
import type { SrRequestPlan } from './read-sr-request.js';

/**
 * The `resolution_multipliers` key of a `WIDTHxHEIGHT` size: its short side and `p`, so both
 * sr-2 sizes (720x1280, 1280x720) are `720p`, and the upstream's larger sizes, should it
 * report one, `1024p`. Undefined for anything else, which prices at the plain `per_second`.
 */
export function srResolutionOf(size: string | undefined): string | undefined {
  const match = /^([0-9]+)x([0-9]+)$/.exec(size ?? '');
  if (match === null) return undefined;
  return `${Math.min(Number(match[1]), Number(match[2]))}p`;
}

/** What an sr video costs: its seconds at its size's resolution (`per_second` × `resolution_multipliers`). */
export function srUsage(seconds: number, size: string | undefined, source: Usage['source']): Usage {
  return videoUsage(seconds, srResolutionOf(size), source);
}

/**
 * The quota to reserve for a checked submission: its `seconds` (default 4) at its size's
 * resolution. A remix is estimated from the `seconds` and `size` it names (default 4 s,
 * 720p); what the upstream reports for the new video is what is charged.
 */
export const estimateSrUsage = (plan: SrRequestPlan): Usage => srUsage(plan.seconds, plan.size, 'estimated');
