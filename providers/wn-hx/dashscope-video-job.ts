import { videoUsage, type Usage } from '../../core/index.js';

/** The pricing tiers a video is billed at: the keys of `resolution_multipliers`. */
export type VideoTier = '480p' | '720p' | '1080p';

/**
 * A video request of any family, checked and mapped onto DashScope's body
 * `{model, input, parameters}` (upstreams.md §4.2, §4.4).
 */
export interface DashScopeVideoJob {
  /** `input` of the upstream body. */
  input: Record<string, unknown>;
  /** `parameters` of the upstream body. */
  parameters: Record<string, unknown>;
  /** The length reserved at submit. */
  seconds: number;
  /** The pricing tier reserved at submit. */
  tier: VideoTier;
  /** Fields shown back on the task. */
  details: Record<string, string | number | boolean>;
  /** The client's name for a field of the upstream body (`parameters.size` → `size`), for the `param` of an upstream refusal. */
  clientField(upstreamPath: string): string;
}

/** What a job will cost: its seconds at its tier (the `resolution_multipliers` key: `480p`, `720p` or `1080p`). */
export function videoJobUsage(job: DashScopeVideoJob): Usage {
  return videoUsage(job.seconds, job.tier, 'estimated');
}
