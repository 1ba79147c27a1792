import type { Usage } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';

/** What a job will cost: its seconds at its tier (the `resolution_multipliers` key: `480p`, `720p` or `1080p`). */
export function videoJobUsage(job: DashScopeVideoJob): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: job.seconds, resolution: job.tier, source: 'estimated' };
}
