import { invalidRequest, quoted, videoUsage, type Usage, type VideoSubmitRequest } from '../../core/index.js';
import { hxFamily } from './hx-family.js';
import { wnFamily } from './wn-family.js';

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

/** Every family the dashscope-video plugin serves. */
export const dashScopeVideoFamilies: readonly DashScopeVideoFamily[] = [wnFamily, hxFamily];

/**
 * The family of a client model id: the one whose name the id starts with (`wn2.7-r2v` → wn,
 * `hx-1.0-t2v` → hx). The id the client sent decides, not the upstream's after `model_map`,
 * so the rules follow the spec's ids whatever a channel sends upstream. An id of no family
 * is a 400 naming `model`; an id of a family without rules is refused by the family.
 */
export function videoFamilyOf(model: string): DashScopeVideoFamily {
  const family = dashScopeVideoFamilies.find((candidate) => model.startsWith(candidate.name));
  if (family === undefined) {
    const names = dashScopeVideoFamilies.map((candidate) => candidate.name).join(' or ');
    throw invalidRequest(`model: ${quoted(model)} is not a dashscope-video model; the dashscope-video plugin serves model ids starting with ${names}`, { param: 'model' });
  }
  return family;
}
