import type { QiParameters } from './qi-client-schemas.js';

/** The body of a multimodal-generation call (upstreams.md §4.3). */
export interface QiUpstreamRequest {
  model: string;
  input: { messages: [{ role: 'user'; content: Array<{ image: string } | { text: string }> }] };
  parameters: QiParameters;
}

// The order of upstreams.md §4.3's sample, so a body reads like DashScope's own examples.
const parameterOrder = ['negative_prompt', 'prompt_extend', 'watermark', 'size', 'n', 'seed'] as const;

/**
 * The upstream body: one user message holding the input images in the order given, then the
 * prompt as one text item; the parameters the client set, none added. `parameters` is always
 * present, even empty, since DashScope refuses a body without it on some paths
 * (`BadRequest.EmptyParameters`).
 */
export function toQiRequest(prompt: string, images: readonly string[], parameters: QiParameters, upstreamModel: string): QiUpstreamRequest {
  const ordered: Record<string, unknown> = {};
  for (const name of parameterOrder) if (parameters[name] !== undefined) ordered[name] = parameters[name];
  return {
    model: upstreamModel,
    input: { messages: [{ role: 'user', content: [...images.map((image) => ({ image })), { text: prompt }] }] },
    parameters: ordered as QiParameters,
  };
}
