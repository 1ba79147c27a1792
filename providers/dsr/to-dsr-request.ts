import { defaultDsrMaxImages } from './check-dsr-model-rules.js';
import type { DsrModelProfile } from './dsr-model-profiles.js';
import type { DsrRequest } from './dsr-request-schema.js';

/** The spec's default `guidance_scale` for the 3.0 models. */
export const defaultDsrGuidanceScale = 2.5;

/** What goes out besides the client's checked fields. */
export interface DsrUpstreamInputs {
  upstreamModel: string;
  /** The prompt, from `prompt` or the text parts of `contents`. */
  prompt: string;
  /** The reference images as data URIs, in order. */
  images: readonly string[];
  profile: DsrModelProfile;
}

/**
 * The body of `POST {base}/images/generations` (upstreams.md §3.2) for a request that passed
 * the family's checks. One reference image goes out as a string, several as an array.
 * Fields the client left out are left out, so the upstream's defaults apply, except two
 * defaults the spec fixes where Ark's own differ: `guidance_scale` 2.5 on the 3.0 models,
 * and `max_images` 4 for a group (Ark's is 15). `stream` is always false.
 */
export function toDsrRequest(request: DsrRequest, inputs: DsrUpstreamInputs): Record<string, unknown> {
  const body: Record<string, unknown> = { model: inputs.upstreamModel, prompt: inputs.prompt };
  if (inputs.images.length === 1) body.image = inputs.images[0];
  else if (inputs.images.length > 1) body.image = [...inputs.images];
  if (request.size !== undefined) body.size = request.size;
  if (request.seed !== undefined) body.seed = request.seed;
  if (inputs.profile.guidanceScale) body.guidance_scale = request.guidance_scale ?? defaultDsrGuidanceScale;
  if (request.sequential_image_generation !== undefined) body.sequential_image_generation = request.sequential_image_generation;
  if (request.sequential_image_generation === 'auto') {
    body.sequential_image_generation_options = { ...request.sequential_image_generation_options, max_images: request.sequential_image_generation_options?.max_images ?? defaultDsrMaxImages };
  }
  if (request.optimize_prompt_options !== undefined) body.optimize_prompt_options = { ...request.optimize_prompt_options };
  if (request.response_format !== undefined) body.response_format = request.response_format;
  if (request.watermark !== undefined) body.watermark = request.watermark;
  body.stream = false;
  return body;
}
