import { videoUsage, type Usage, type VideoSubmitRequest } from '../../core/index.js';

/** The pricing tiers a video is billed at: the keys of `resolution_multipliers`. */
export type VideoTier = '480p' | '720p' | '1080p';

/**
 * A video request of any family, checked and mapped onto DashScope's body
 * `{model, input, parameters}` (upstreams.md §4.2, §4.4).
 */
export interface DashScopeVideoJob {
  /** `input` and `parameters` of the upstream body. */
  input: Record<string, unknown>;
  parameters: Record<string, unknown>;
  /** The length and the pricing tier reserved at submit. */
  seconds: number;
  tier: VideoTier;
  /** Fields shown back on the task. */
  details: Record<string, string | number | boolean>;
  /** The client's name for a field of the upstream body (`parameters.size` → `size`), for the `param` of an upstream refusal. */
  clientField(upstreamPath: string): string;
}

/** What a job will cost: its seconds at its tier (the `resolution_multipliers` key). */
export function videoJobUsage(job: DashScopeVideoJob): Usage {
  return videoUsage(job.seconds, job.tier, 'estimated');
}

/** One family of video models served on DashScope's async tasks. */
export interface DashScopeVideoFamily {
  /** The family's name, which every client model id of the family starts with (`wn`, `hx`). */
  name: string;
  /**
   * Reads a submission by the rules of its model and maps it onto DashScope's body. Pure and
   * synchronous: the plugin's `prepare` runs it once, before any quota is held, and the
   * estimate and the submit use what it read; every refusal is a 400 naming the field.
   */
  readRequest(request: VideoSubmitRequest): DashScopeVideoJob;
  /** The tiers a model of the family makes: the upstream's reported usage is billed only at one of them. */
  tiersOf(model: string): readonly VideoTier[];
}
