import type { z } from 'zod';
import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoFamily } from './dashscope-video-family.js';
import type { DashScopeVideoJob, VideoTier } from './dashscope-video-job.js';
import { checkHxNestedMedia } from './hx-nested-media.js';
import { nestedVideoBodySchema } from './nested-video-body-schema.js';
import { readNestedVideoRequest, type NestedVideoRules } from './read-nested-video-request.js';

/** What an hx model makes its video from: text, a first frame, or reference images. */
export type HxMode = 't2v' | 'i2v' | 'r2v';

/** Every tier hx makes (spec part 2: `720P` or `1080P`). */
export const hxTiers: readonly VideoTier[] = ['720p', '1080p'];

/**
 * The mode of a client model id, read from the id itself (spec part 2: `hx-1.0-t2v`,
 * `hx-1.0-i2v`, `hx-1.0-r2v`; a later `hx-1.x-*` follows the same rules, as HappyHorse
 * 1.1 does upstream, upstreams.md §4.4), or the 400 for an id without hx rules.
 */
export function hxModelMode(model: string): HxMode {
  const mode = /^hx-\d+\.\d+-(t2v|i2v|r2v)(?:-|$)/.exec(model)?.[1];
  if (mode === undefined) throw invalidRequest(`model: "${model}" is not an hx video model; the hx family is hx-1.0-t2v, hx-1.0-i2v and hx-1.0-r2v`, { param: 'model' });
  return mode as HxMode;
}

/** Spec part 2 (hx column); `9:21` is HappyHorse's own (upstreams.md §4.4). */
const ratios = ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '9:21', '21:9'];

/** The hx body of spec part 2: the common nested body and nothing more. */
const hxSchema = nestedVideoBodySchema({ input: {}, mediaItem: {}, parameters: {}, ratios });

/**
 * hx's rules (spec part 2, the `hx-` column; HappyHorse on DashScope, upstreams.md §4.4):
 * `resolution` defaults to 1080P, durations 3 to 15 seconds; ratio 16:9 and watermark true
 * are the upstream's own defaults and are not sent, so the recorded requests of fixture
 * dashscope-happyhorse-requests.json go out unchanged.
 */
const hxRules: NestedVideoRules<z.output<typeof hxSchema>> = {
  schema: hxSchema,
  takenBy: 'hx models',
  fieldLists: { input: 'prompt and media', parameters: 'resolution, ratio, duration, watermark and seed', mediaItem: 'type and url' },
  multipartRefusal: 'hx models take a JSON body with metadata.input; multipart forms are not accepted',
  referenceNaming: '[Image 1]...',
  ratios,
  imageToVideoRatioRefusal: 'image-to-video keeps the aspect of its first frame; omit ratio',
  defaultResolution: '1080P',
  readInput(input, mode, model) {
    const media = checkHxNestedMedia(input.media ?? [], mode, model);
    return { input: media.length === 0 ? {} : { media }, durations: { shortest: 3, longest: 15 } };
  },
  extraParameters: () => ({}),
};

/** Reads an hx submission by {@link readNestedVideoRequest} with hx's rules, its mode read from the model id. */
export function readHxVideoRequest(request: VideoSubmitRequest): DashScopeVideoJob {
  return readNestedVideoRequest(request, hxModelMode(request.model), hxRules);
}

/** The hx family (spec part 2): the nested body, on HappyHorse's DashScope models (upstreams.md §4.4). */
export const hxFamily: DashScopeVideoFamily = {
  name: 'hx',
  readRequest: readHxVideoRequest,
  tiersOf: () => hxTiers,
};
