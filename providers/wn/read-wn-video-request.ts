import type { Usage, VideoSubmitRequest } from '../../core/index.js';
import { readWnFlatRequest } from './read-wn-flat-request.js';
import { readWnNestedRequest } from './read-wn-nested-request.js';
import { requireWnModelKind } from './wn-model-kind.js';
import type { WnVideoJob } from './wn-video-job.js';

/**
 * Reads a wn submission by its model's rules: the flat wn2.5 fields or the nested wn2.7
 * ones. Pure and synchronous, so the estimate (before any quota is held) and the submit
 * read the request the same way; every refusal is a 400 naming the field.
 */
export function readWnVideoRequest(request: VideoSubmitRequest): WnVideoJob {
  const kind = requireWnModelKind(request.model);
  return kind.family === 'wn2.5' ? readWnFlatRequest(request, kind.mode) : readWnNestedRequest(request, kind.mode);
}

/** What a job will cost: its seconds at its tier (the `resolution_multipliers` key: `480p`, `720p` or `1080p`). */
export function wnJobUsage(job: WnVideoJob): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: job.seconds, resolution: job.tier, source: 'estimated' };
}
