import type { HxMode, HxTier } from './hx-model-mode.js';

/** An hx video request, checked and mapped onto the upstream's body (upstreams.md §4.4). */
export interface HxVideoJob {
  mode: HxMode;
  /** `input` of the upstream body. */
  input: Record<string, unknown>;
  /** `parameters` of the upstream body. */
  parameters: Record<string, unknown>;
  /** The length reserved at submit. */
  seconds: number;
  /** The pricing tier reserved at submit. */
  tier: HxTier;
  /** Fields shown back on the task. */
  details: Record<string, string | number | boolean>;
}
