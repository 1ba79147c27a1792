import { invalidRequest, type OperationName } from '../../core/index.js';
import type { DsrInputs } from './collect-dsr-inputs.js';
import { dsrModelProfiles, maxDsrImagesPerGroup, type DsrModelProfile } from './dsr-model-profiles.js';
import type { DsrRequest } from './dsr-request-schema.js';

/** The spec's default number of images of a group (`sequential_image_generation_options.max_images`). */
export const defaultDsrMaxImages = 4;

/** The spec ids of the models `has` holds for, as a phrase: `a and b`, `a, b or c`. */
function modelsWith(has: (profile: DsrModelProfile) => boolean, conjunction: 'and' | 'or' = 'and'): string {
  const ids = dsrModelProfiles.filter(has).map((profile) => profile.id);
  return ids.length <= 1 ? ids.join('') : `${ids.slice(0, -1).join(', ')} ${conjunction} ${ids.at(-1)}`;
}

const refuse = (field: string, message: string) => invalidRequest(`${field}: ${message}`, { param: field });

function checkSize(request: DsrRequest, profile: DsrModelProfile, model: string): void {
  if (request.size === undefined) return;
  const accepted = [...profile.sizeTiers, ...profile.sizes];
  if (!accepted.includes(request.size)) throw refuse('size', `"${request.size}" is not a size ${model} makes; use one of ${accepted.join(', ')}`);
}

function checkFamilyFields(request: DsrRequest, profile: DsrModelProfile, model: string): void {
  if (request.guidance_scale !== undefined && !profile.guidanceScale) {
    throw refuse('guidance_scale', `only ${modelsWith((known) => known.guidanceScale)} take guidance_scale; remove it for ${model}`);
  }
  for (const field of ['sequential_image_generation', 'sequential_image_generation_options'] as const) {
    if (request[field] !== undefined && !profile.sequential) {
      throw refuse(field, `only ${modelsWith((known) => known.sequential)} make image groups; remove ${field} for ${model}`);
    }
  }
  if (request.sequential_image_generation_options !== undefined && request.sequential_image_generation !== 'auto') {
    throw refuse('sequential_image_generation_options', 'only used when sequential_image_generation is auto; set it to auto or remove the options');
  }
  const optimize = request.optimize_prompt_options;
  if (optimize !== undefined && profile.optimizeModes.length === 0) {
    throw refuse('optimize_prompt_options', `only ${modelsWith((known) => known.optimizeModes.length > 0)} take optimize_prompt_options; remove it for ${model}`);
  }
  if (optimize?.mode !== undefined && !profile.optimizeModes.includes(optimize.mode)) {
    const elsewhere = modelsWith((known) => known.optimizeModes.includes(optimize.mode!), 'or');
    throw refuse('optimize_prompt_options.mode', `${optimize.mode} is only available on ${elsewhere}; use ${profile.optimizeModes.join(' or ')} for ${model}`);
  }
}

function checkReferences(request: DsrRequest, inputs: DsrInputs, profile: DsrModelProfile, model: string, operation: OperationName): void {
  const { references } = inputs;
  const first = references[0];
  if (profile.references.max === 0 && first !== undefined) {
    const others = modelsWith((known) => known.references.max > 0, 'or');
    throw refuse(first.field, `${model} makes images from text only; remove the reference images, or use ${others} to work from an image`);
  }
  if (references.length === 0 && operation === 'images.edit') {
    throw refuse('image', '/v1/images/edits needs a reference image; send one in contents or image, or use /v1/images/generations');
  }
  if (references.length < profile.references.min) {
    throw refuse('image', `${model} edits a reference image; send one in contents or image`);
  }
  const extra = references[profile.references.max];
  if (extra !== undefined) {
    const count = profile.references.max === 1 ? 'exactly one reference image' : `at most ${profile.references.max} reference images`;
    throw refuse(extra.field, `${model} takes ${count}; send fewer`);
  }
  if (request.sequential_image_generation === 'auto') {
    const maxImages = request.sequential_image_generation_options?.max_images ?? defaultDsrMaxImages;
    if (references.length + maxImages > maxDsrImagesPerGroup) {
      throw refuse(
        'sequential_image_generation_options.max_images',
        `reference images plus images of the group may be at most ${maxDsrImagesPerGroup}; with ${references.length} reference images, set max_images to at most ${maxDsrImagesPerGroup - references.length}`,
      );
    }
  }
}

/**
 * The rules of spec part 2's Seedream-style table that depend on the model: sizes per
 * version, `guidance_scale` only on the 3.0 models, image groups and prompt optimisation
 * only on 4.0 and 4.5 (`fast` only on 4.0), `max_images` only with `auto`, reference images
 * none for the 3.0 text-to-image model, exactly one for the 3.0 edit model, at most 14 for
 * 4.x; plus a prompt always, and a reference image on `/v1/images/edits`. Each broken rule is
 * a 400 naming the field. Returns the prompt.
 */
export function checkDsrModelRules(request: DsrRequest, inputs: DsrInputs, profile: DsrModelProfile, model: string, operation: OperationName): string {
  if (inputs.prompt === undefined || inputs.prompt.trim() === '') {
    const problem = inputs.prompt === undefined ? 'required' : 'must not be empty';
    const message = inputs.promptField === 'contents' ? `contents: a text part with the prompt is ${problem === 'required' ? 'required' : 'empty'}` : `prompt: ${problem}; describe the image to make`;
    throw invalidRequest(message, { param: inputs.promptField });
  }
  checkSize(request, profile, model);
  checkFamilyFields(request, profile, model);
  checkReferences(request, inputs, profile, model, operation);
  return inputs.prompt;
}
