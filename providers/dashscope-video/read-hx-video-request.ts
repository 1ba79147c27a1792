import type { z } from 'zod';
import type { VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';
import { hxModelMode } from './hx-model-mode.js';
import { checkHxNestedMedia } from './hx-nested-media.js';
import { nestedVideoBodySchema } from './nested-video-body-schema.js';
import { readNestedVideoRequest, type NestedVideoRules } from './read-nested-video-request.js';

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
