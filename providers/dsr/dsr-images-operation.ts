import type { ImageRequest, OperationCall, OperationName, ProviderHost, JsonResult } from '../../core/index.js';
import { mediaErrorAboutField, readUpstreamJsonBody, type PathPrefixOptions } from '../../core/kit/index.js';
import { callOpenAiCompatible } from '../shared/openai-compatible/openai-compatible.js';
import { checkDsrModelRules, defaultDsrMaxImages, dsrModelProfile, type DsrModelProfile } from './dsr-model-profiles.js';
import { dsrStatusError, fromDsrResponse } from './from-dsr-response.js';
import { collectDsrInputs, normalizeDsrForm, readDsrRequest, type DsrReference, type DsrRequest } from './read-dsr-request.js';

/**
 * The image types reference images may have. Ark's Seedream docs list jpeg, png, webp, bmp,
 * tiff and gif for reference images (public doc summaries; upstreams.md §3.2 names no list).
 */
const dsrReferenceMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/tiff', 'image/gif'] as const;

/**
 * Every reference image as a data URI, in order. URLs are fetched through the gateway's
 * SSRF guard (private addresses refused, size and time capped) and data URIs decoded by it,
 * both with the types above only; the upstream then never fetches a client-given URL itself.
 * A refusal is the guard's 400 with the field named in front.
 */
async function fetchDsrReferences(host: ProviderHost, references: readonly DsrReference[], signal: AbortSignal): Promise<string[]> {
  const images: string[] = [];
  for (const reference of references) {
    try {
      const media = await host.media.fetch(reference.source, { allowedMimeTypes: dsrReferenceMimeTypes, signal });
      images.push(`data:${media.mimeType};base64,${media.data.toString('base64')}`);
    } catch (error) {
      throw mediaErrorAboutField(error, reference.field, reference.label);
    }
  }
  return images;
}

/**
 * The body of `POST {base}/images/generations` (upstreams.md §3.2) for a request that passed
 * the family's checks, with the prompt (from `prompt` or the text parts of `contents`) and the
 * reference images as data URIs, in order. One reference image goes out as a string, several
 * as an array. Fields the client left out are left out, so the upstream's defaults apply,
 * except two defaults the spec fixes where Ark's own differ: `guidance_scale` 2.5 on the 3.0
 * models, and `max_images` 4 for a group (Ark's is 15). `stream` is always false.
 */
export function toDsrRequest(
  request: DsrRequest,
  inputs: { upstreamModel: string; prompt: string; images: readonly string[]; profile: DsrModelProfile },
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: inputs.upstreamModel, prompt: inputs.prompt };
  if (inputs.images.length === 1) body.image = inputs.images[0];
  else if (inputs.images.length > 1) body.image = [...inputs.images];
  if (request.size !== undefined) body.size = request.size;
  if (request.seed !== undefined) body.seed = request.seed;
  if (inputs.profile.guidanceScale) body.guidance_scale = request.guidance_scale ?? 2.5;
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

/**
 * `images.generate` and `images.edit` for a Seedream-style model: the request is checked
 * against the family's schema and the model's rules, reference images are fetched through
 * the SSRF guard, one non-stream call goes to the upstream, and its answer comes back with
 * the images actually delivered as the billed usage.
 */
export function createDsrImagesOperation(host: ProviderHost, operation: Extract<OperationName, 'images.generate' | 'images.edit'>) {
  return async (call: OperationCall<ImageRequest, PathPrefixOptions>): Promise<JsonResult> => {
    const { fields, uploads } = normalizeDsrForm(call.request);
    const request = readDsrRequest(fields);
    const profile = dsrModelProfile(call.model, call.upstreamModel);
    const inputs = collectDsrInputs(request, uploads);
    const prompt = checkDsrModelRules(request, inputs, profile, call.model, operation);
    const images = await fetchDsrReferences(host, inputs.references, call.signal);
    const body = toDsrRequest(request, { upstreamModel: call.upstreamModel, prompt, images, profile });
    // Ark takes the key as a Bearer token and the path under `path_prefix`, as an OpenAI-style upstream does (upstreams.md §3.1).
    const response = await callOpenAiCompatible(host, call, '/images/generations', { body: JSON.stringify(body) }, dsrStatusError);
    const { json } = await readUpstreamJsonBody(response.body, 'an images response');
    return { kind: 'json', ...fromDsrResponse(json, { model: call.model, now: Math.floor(host.now() / 1000) }) };
  };
}
