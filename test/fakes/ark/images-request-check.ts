import { arkErrorBody, arkInvalidParameterBody, type ArkErrorBody } from './ark-error-body.js';
import { isObject } from './ark-wire.js';

/** What the images route makes for a request that passed its checks. */
export interface ImagesPlan {
  model: string;
  /** Reference images sent in `image`. */
  references: number;
  /** Images to make: 1, or up to `max_images` for a group. */
  count: number;
  /** `WxH` of every image made. */
  size: string;
  responseFormat: 'url' | 'b64_json';
  stream: boolean;
}

/** A refusal: the status and Ark's error body. */
export interface ImagesRefusal {
  status: number;
  body: ArkErrorBody;
}

const tiers: Record<string, string> = { '1K': '1024x1024', '2K': '2048x2048', '4K': '4096x4096' };
const imageSource = /^(https?:\/\/|data:image\/[a-z0-9.+-]+;base64,)/i;
// Ark's caps (upstreams.md §3.2): up to 14 references; references plus images of a group up to 15.
const maxReferences = 14;
const maxGroup = 15;

const isWholeNumber = (value: unknown, low: number, high: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= low && value <= high;

/**
 * Checks a `POST /images/generations` body the way Ark does, loosely: the fields of
 * upstreams.md §3.2 with their types and ranges (`size` as `WxH`, or `1K`/`2K`/`4K` on
 * models other than 3.x). `models`, when given, lists the models that exist; another is 404.
 */
export function checkImagesRequest(body: unknown, requestId: string, models: readonly string[] | undefined): ImagesPlan | ImagesRefusal {
  const invalid = (param: string, why: string): ImagesRefusal => ({ status: 400, body: arkInvalidParameterBody(param, why, requestId) });
  if (!isObject(body)) return { status: 400, body: arkErrorBody(400, { message: 'The request body is not valid JSON.', requestId }) };
  const { model, prompt, image, size, seed, guidance_scale, watermark, response_format, sequential_image_generation, sequential_image_generation_options, stream } = body;
  if (typeof model !== 'string' || model === '') return invalid('model', 'a model is required');
  if (models !== undefined && !models.includes(model)) {
    return { status: 404, body: arkErrorBody(404, { message: `The model or endpoint ${model} does not exist or you do not have access to it.`, requestId }) };
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') return invalid('prompt', 'a prompt is required');

  const images = image === undefined ? [] : Array.isArray(image) ? image : [image];
  if (images.length > maxReferences) return invalid('image', `at most ${maxReferences} images are supported`);
  const bad = images.findIndex((source) => typeof source !== 'string' || !imageSource.test(source));
  if (bad >= 0) return invalid(Array.isArray(image) ? `image[${bad}]` : 'image', 'expected an http(s) URL or a base64 data URI of an image');

  const legacy = /3-0/.test(model);
  let outputSize = legacy ? '1024x1024' : '2048x2048';
  if (size !== undefined) {
    if (typeof size === 'string' && /^[1-9][0-9]*x[1-9][0-9]*$/.test(size)) outputSize = size;
    else if (typeof size === 'string' && tiers[size] !== undefined && !legacy) outputSize = tiers[size]!;
    else return invalid('size', legacy ? 'expected WIDTHxHEIGHT' : 'expected WIDTHxHEIGHT, 1K, 2K or 4K');
  }
  if (seed !== undefined && !isWholeNumber(seed, -1, 2147483647)) return invalid('seed', 'expected an integer from -1 to 2147483647');
  if (guidance_scale !== undefined && (typeof guidance_scale !== 'number' || guidance_scale < 1 || guidance_scale > 10)) return invalid('guidance_scale', 'expected a number from 1 to 10');
  if (watermark !== undefined && typeof watermark !== 'boolean') return invalid('watermark', 'expected a boolean');
  if (response_format !== undefined && response_format !== 'url' && response_format !== 'b64_json') return invalid('response_format', 'expected url or b64_json');
  if (stream !== undefined && typeof stream !== 'boolean') return invalid('stream', 'expected a boolean');
  if (sequential_image_generation !== undefined && sequential_image_generation !== 'auto' && sequential_image_generation !== 'disabled') {
    return invalid('sequential_image_generation', 'expected auto or disabled');
  }
  const maxImages = isObject(sequential_image_generation_options) ? sequential_image_generation_options.max_images : undefined;
  if (maxImages !== undefined && !isWholeNumber(maxImages, 1, maxGroup)) return invalid('sequential_image_generation_options.max_images', `expected an integer from 1 to ${maxGroup}`);

  const group = sequential_image_generation === 'auto';
  if (group && typeof maxImages === 'number' && images.length + maxImages > maxGroup) {
    return invalid('sequential_image_generation_options.max_images', `the number of input and output images must not exceed ${maxGroup}`);
  }
  const count = group ? Math.min((maxImages as number | undefined) ?? maxGroup, maxGroup - images.length) : 1;
  return { model, references: images.length, count, size: outputSize, responseFormat: response_format === 'b64_json' ? 'b64_json' : 'url', stream: stream === true };
}

/** Whether a check refused the request. */
export const isRefusal = (result: ImagesPlan | ImagesRefusal): result is ImagesRefusal => 'status' in result;
