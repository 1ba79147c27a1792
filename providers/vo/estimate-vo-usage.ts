import { videoUsage, type Usage } from '../../core/index.js';
import type { VoVideoPlan } from './read-vo-request.js';

/**
 * The billable usage of `videos` videos of `secondsEach` seconds at `resolution`: every
 * video made is billed, so `per_second` prices `secondsEach × videos` seconds, times the
 * `resolution_multipliers` entry keyed `720p` or `1080p`.
 */
export function voUsage(secondsEach: number, videos: number, resolution: string, source: Usage['source']): Usage {
  return videoUsage(secondsEach * videos, resolution, source);
}

/**
 * The quota to reserve for a vo submission before any upstream call: every requested video
 * at its length and resolution, read from the plan `prepare` made (`readVoRequest`, which
 * refused a bad request before quota was touched).
 */
export function estimateVoUsage(plan: VoVideoPlan): Usage {
  return voUsage(plan.durationSeconds, plan.sampleCount, plan.resolution, 'estimated');
}
