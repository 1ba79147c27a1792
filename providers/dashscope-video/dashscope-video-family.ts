import type { VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoJob, VideoTier } from './dashscope-video-job.js';

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
