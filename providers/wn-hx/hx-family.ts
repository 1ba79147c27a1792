import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { fieldError } from '../../core/kit/index.js';
import type { DashScopeVideoFamily, DashScopeVideoJob, VideoTier } from './dashscope-video-family.js';
import { checkMediaReference, hxImageFormat } from './media-reference.js';
import { nestedVideoBodySchema, readNestedVideoRequest, type NestedVideoMode } from './read-nested-video-request.js';

/** Every tier hx makes (spec part 2: `720P` or `1080P`). */
export const hxTiers: readonly VideoTier[] = ['720p', '1080p'];

/**
 * The mode of a client model id, read from the id itself (spec part 2: `hx-1.0-t2v`,
 * `hx-1.0-i2v`, `hx-1.0-r2v`; a later `hx-1.x-*` follows the same rules, as HappyHorse
 * 1.1 does upstream, upstreams.md §4.4), or the 400 for an id without hx rules.
 */
function hxModelMode(model: string): NestedVideoMode {
  const mode = /^hx-\d+\.\d+-(t2v|i2v|r2v)(?:-|$)/.exec(model)?.[1];
  if (mode === undefined) throw invalidRequest(`model: "${model}" is not an hx video model; the hx family is hx-1.0-t2v, hx-1.0-i2v and hx-1.0-r2v`, { param: 'model' });
  return mode as NestedVideoMode;
}

/** Reference images an hx-1.0-r2v request takes (spec part 2, Limits). */
const maxReferenceImages = 9;
const mediaPath = 'metadata.input.media';

/**
 * The media of each hx mode (spec part 2): none for text-to-video, exactly one
 * `first_frame` for image-to-video (no last frame, continuation or audio), 1 to 9
 * `reference_image` items for reference-to-video, referred to in the prompt as `[Image n]`
 * in their order. Returns the items as the upstream gets them.
 */
function checkHxMedia(items: ReadonlyArray<{ type: string; url: string }>, mode: NestedVideoMode, model: string): Array<Record<string, string>> {
  const type = mode === 'i2v' ? 'first_frame' : 'reference_image';
  if (mode === 't2v') {
    if (items.length > 0) throw fieldError(mediaPath, `${model} makes video from text and takes no media; use hx-1.0-i2v or hx-1.0-r2v for images`);
    return [];
  }
  const media = items.map((item, index) => {
    if (item.type !== type) throw fieldError(`${mediaPath}[${index}].type`, `${model} takes only ${type} items`);
    return { type, url: checkMediaReference(item.url, `${mediaPath}[${index}].url`, hxImageFormat) };
  });
  if (mode === 'i2v' && media.length !== 1) throw fieldError(mediaPath, media.length === 0 ? 'required: exactly one first_frame' : 'exactly one first_frame; hx-1.0-i2v takes no last frame');
  if (mode === 'r2v' && media.length === 0) throw fieldError(mediaPath, `required: 1 to ${maxReferenceImages} reference_image items, named [Image 1]... in the prompt`);
  if (mode === 'r2v' && media.length > maxReferenceImages) throw fieldError(mediaPath, `at most ${maxReferenceImages} reference_image items`);
  return media;
}

/** Spec part 2 (hx column); `9:21` is HappyHorse's own (upstreams.md §4.4). */
const ratios = ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '9:21', '21:9'];
const hxSchema = nestedVideoBodySchema({ input: {}, mediaItem: {}, parameters: {}, ratios });

/**
 * Reads an hx submission by {@link readNestedVideoRequest}, its mode read from the model id,
 * with hx's rules (spec part 2, the `hx-` column; HappyHorse on DashScope, upstreams.md §4.4):
 * the common nested body and nothing more; `resolution` defaults to 1080P, durations 3 to 15
 * seconds; ratio 16:9 and watermark true are the upstream's own defaults and are not sent, so
 * the recorded requests of fixture dashscope-happyhorse-requests.json go out unchanged.
 */
export function readHxVideoRequest(request: VideoSubmitRequest): DashScopeVideoJob {
  return readNestedVideoRequest(request, hxModelMode(request.model), {
    schema: hxSchema,
    takenBy: 'hx models',
    fieldLists: { input: 'prompt and media', parameters: 'resolution, ratio, duration, watermark and seed', mediaItem: 'type and url' },
    multipartRefusal: 'hx models take a JSON body with metadata.input; multipart forms are not accepted',
    referenceNaming: '[Image 1]...',
    ratios,
    imageToVideoRatioRefusal: 'image-to-video keeps the aspect of its first frame; omit ratio',
    defaultResolution: '1080P',
    readInput(input, mode, model) {
      const media = checkHxMedia(input.media ?? [], mode, model);
      return { input: media.length === 0 ? {} : { media }, durations: { shortest: 3, longest: 15 } };
    },
    extraParameters: () => ({}),
  });
}

/** The hx family (spec part 2): the nested body, on HappyHorse's DashScope models (upstreams.md §4.4). */
export const hxFamily: DashScopeVideoFamily = {
  name: 'hx',
  readRequest: readHxVideoRequest,
  tiersOf: () => hxTiers,
};
