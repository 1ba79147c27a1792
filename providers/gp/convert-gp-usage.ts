import type { Usage } from '../../core/index.js';
import type { GpResponsesUsage, GpUsage } from './gp-schemas.js';

const count = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/**
 * The core usage for the upstream's `usage` object (upstreams.md §2.4): its prompt and
 * completion counts already include the cached and reasoning parts, as core's do.
 */
export function convertGpUsage(usage: GpUsage): Usage {
  return {
    inputTokens: count(usage.prompt_tokens),
    cachedInputTokens: count(usage.prompt_tokens_details?.cached_tokens),
    outputTokens: count(usage.completion_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
    source: 'upstream',
  };
}

/** The core usage for a Responses object's `usage` (upstreams.md §2.2): input includes cached, output includes reasoning. */
export function convertGpResponsesUsage(usage: GpResponsesUsage): Usage {
  return {
    inputTokens: count(usage.input_tokens),
    cachedInputTokens: count(usage.input_tokens_details?.cached_tokens),
    outputTokens: count(usage.output_tokens),
    reasoningTokens: count(usage.output_tokens_details?.reasoning_tokens),
    source: 'upstream',
  };
}
