import { invalidRequest, type OperationName } from '../../core/index.js';
import { quoted } from '../../core/kit/index.js';
import type { DsrInputs, DsrRequest } from './read-dsr-request.js';

/** The output sizes of the 3.0 models (spec part 2, Seedream-style family, `size`). */
export const dsrSizes30 = ['1024x1024', '1152x864', '864x1152', '1280x720', '720x1280', '1248x832', '832x1248', '1512x648'] as const;

/** The 2K output sizes of 4.0 and 4.5. */
export const dsrSizes2K = ['2048x2048', '2304x1728', '1728x2304', '2560x1440', '1440x2560', '2496x1664', '1664x2496', '3024x1296'] as const;

/** The 4K output sizes of 4.0 and 4.5. */
export const dsrSizes4K = ['4096x4096', '4704x3520', '3520x4704', '5504x3040', '3040x5504', '4992x3328', '3328x4992', '6240x2656'] as const;

/** What one Seedream-style model accepts. */
export interface DsrModelProfile {
  /** The spec's id of the model, e.g. `dsr-4-0-250828`. */
  id: string;
  /** Exact `WxH` values of `size`. */
  sizes: readonly string[];
  /** Resolution words `size` may also be; the upstream picks the exact size (upstreams.md §3.2, 4.x only). */
  sizeTiers: readonly string[];
  /** Whether `guidance_scale` is accepted; when it is and the client leaves it out, the spec's default goes out. */
  guidanceScale: boolean;
  /** Whether `sequential_image_generation` (image groups) is accepted. */
  sequential: boolean;
  /** The `optimize_prompt_options.mode` values accepted; empty when the field is not. */
  optimizeModes: readonly string[];
  /** How many reference images the model takes. */
  references: { min: number; max: number };
}

/** Ark's limit on reference images plus generated images of one group (upstreams.md §3.2). */
const maxDsrImagesPerGroup = 15;

const t2i30: DsrModelProfile = {
  id: 'dsr-3-0-t2i-250415',
  sizes: dsrSizes30,
  sizeTiers: [],
  guidanceScale: true,
  sequential: false,
  optimizeModes: [],
  references: { min: 0, max: 0 },
};

const i2i30: DsrModelProfile = { ...t2i30, id: 'dse-3-0-i2i-250628', references: { min: 1, max: 1 } };

const v40: DsrModelProfile = {
  id: 'dsr-4-0-250828',
  sizes: [...dsrSizes2K, ...dsrSizes4K],
  sizeTiers: ['2K', '4K'],
  guidanceScale: false,
  sequential: true,
  optimizeModes: ['standard', 'fast'],
  references: { min: 0, max: 14 }, // Ark's limit per request (upstreams.md §3.2, "up to 14")
};

const v45: DsrModelProfile = { ...v40, id: 'dsr-4-5-251128', optimizeModes: ['standard'] };

/** Every profile, by the spec's model id. */
const dsrModelProfiles: readonly DsrModelProfile[] = [t2i30, i2i30, v40, v45];

// An id the spec does not list (a channel's own alias, or the upstream's name after
// model_map) still tells its version: doubao-seedream-4-0-250828, seededit-3-0-i2i-...
const patterns: Array<[RegExp, DsrModelProfile]> = [
  [/(?:dse|seededit)-3-0/, i2i30],
  [/(?:dsr|seedream)-3-0/, t2i30],
  [/(?:dsr|seedream)-4-0/, v40],
  [/(?:dsr|seedream)-4-5/, v45],
];

function profileOf(model: string): DsrModelProfile | undefined {
  return dsrModelProfiles.find((profile) => profile.id === model) ?? patterns.find(([pattern]) => pattern.test(model))?.[1];
}

/**
 * The profile of the model the client asked for, else of the model the channel maps it to.
 * A model neither names is a 400: its rules are unknown, so nothing would check the request.
 */
export function dsrModelProfile(model: string, upstreamModel: string): DsrModelProfile {
  const profile = profileOf(model) ?? profileOf(upstreamModel);
  if (profile !== undefined) return profile;
  const known = dsrModelProfiles.map((known) => known.id).join(', ');
  throw invalidRequest(`model: ${quoted(model)} is not a Seedream-style model the dsr provider knows; use one of ${known}`, { param: 'model' });
}

/** The spec's default number of images of a group (`sequential_image_generation_options.max_images`). */
export const defaultDsrMaxImages = 4;

/** The spec ids of the models `has` holds for, as a phrase: `a and b`, `a, b or c`. */
function modelsWith(has: (profile: DsrModelProfile) => boolean, conjunction: 'and' | 'or' = 'and'): string {
  const ids = dsrModelProfiles.filter(has).map((profile) => profile.id);
  return ids.length <= 1 ? ids.join('') : `${ids.slice(0, -1).join(', ')} ${conjunction} ${ids.at(-1)}`;
}

const refuse = (field: string, message: string) => invalidRequest(`${field}: ${message}`, { param: field });

function checkReferences(request: DsrRequest, references: DsrInputs['references'], profile: DsrModelProfile, model: string, operation: OperationName): void {
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
    const missing = inputs.prompt === undefined;
    if (request.contents !== undefined) throw refuse('contents', `a text part with the prompt is ${missing ? 'required' : 'empty'}`);
    throw refuse('prompt', `${missing ? 'required' : 'must not be empty'}; describe the image to make`);
  }
  const sizes = [...profile.sizeTiers, ...profile.sizes];
  if (request.size !== undefined && !sizes.includes(request.size)) {
    throw refuse('size', `"${request.size}" is not a size ${model} makes; use one of ${sizes.join(', ')}`);
  }
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
  checkReferences(request, inputs.references, profile, model, operation);
  return inputs.prompt;
}
