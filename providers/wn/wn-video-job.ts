import type { WnModelKind, WnTier } from './wn-model-kind.js';

/** A wn video request, checked and mapped onto the upstream's body (upstreams.md §4.2). */
export interface WnVideoJob {
  kind: WnModelKind;
  /** `input` of the upstream body. */
  input: Record<string, unknown>;
  /** `parameters` of the upstream body. */
  parameters: Record<string, unknown>;
  /** The length reserved at submit. */
  seconds: number;
  /** The pricing tier reserved at submit. */
  tier: WnTier;
  /** Fields shown back on the task. */
  details: Record<string, string | number | boolean>;
  /** The client's name for a field of the upstream body (`parameters.size` → `size`), for the `param` of an upstream refusal. */
  clientField(upstreamPath: string): string;
}
