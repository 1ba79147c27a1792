import type { Usage, VideoSubmitRequest } from '../../core/index.js';
import { readVoRequest } from './read-vo-request.js';

/**
 * The billable usage of `videos` videos of `secondsEach` seconds at `resolution`: every
 * video made is billed, so `per_second` prices `secondsEach × videos` seconds, times the
 * `resolution_multipliers` entry keyed `720p` or `1080p`.
 */
export function voUsage(secondsEach: number, videos: number, resolution: string, source: Usage['source']): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: secondsEach * videos, resolution, source };
}

/**
 * The quota to reserve for a vo submission before any upstream call: every requested video
 * at its length and resolution. Validates the request first, so a bad one is refused before
 * quota is touched.
 * @throws GatewayError 400 `invalid_request`, as {@link readVoRequest}.
 */
export function estimateVoUsage(request: VideoSubmitRequest): Usage {
  const plan = readVoRequest(request);
  return voUsage(plan.durationSeconds, plan.sampleCount, plan.resolution, 'estimated');
}
