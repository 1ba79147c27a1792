import { z } from 'zod';
import type { Usage, VideoSubmitRequest } from '../../core/index.js';
import { fieldError, parseHxFields } from './hx-field-error.js';
import { checkHxImageReference } from './hx-image-reference.js';
import { hxModelMode, type HxMode, type HxTier } from './hx-model-mode.js';
import type { HxVideoJob } from './hx-video-job.js';

const maxSeed = 2_147_483_647;
/** Spec part 2 (hx column); `9:21` is HappyHorse's own (upstreams.md §4.4). */
const ratios = ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '9:21', '21:9'];
/** Reference images an hx-1.0-r2v request takes (spec part 2, Limits). */
const maxReferenceImages = 9;
const mediaPath = 'metadata.input.media';

const wholeSeconds = z.int({ error: 'expected a whole number of seconds' });
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/** The hx body of spec part 2: top-level model, prompt and duration, and metadata {input, parameters}. */
const hxSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  duration: wholeSeconds.optional(),
  metadata: z.strictObject(
    {
      input: z.strictObject(
        {
          prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
          media: z
            .array(
              z.strictObject(
                { type: z.string({ error: 'expected the media type as a string' }), url: z.string({ error: 'expected the URL as a string' }) },
                { error: 'expected a {type, url} item' },
              ),
              { error: 'expected a list of {type, url} items' },
            )
            .optional(),
        },
        { error: 'expected an object' },
      ),
      parameters: z
        .strictObject(
          {
            resolution: z.preprocess(upperCase, z.enum(['720P', '1080P'], { error: 'expected 720P or 1080P' })).optional(),
            ratio: z.string({ error: `expected one of ${ratios.join(', ')}` }).optional(),
            duration: wholeSeconds.optional(),
            watermark: z.boolean({ error: 'expected true or false' }).optional(),
            seed: z
              .int({ error: `expected a whole number from 0 to ${maxSeed}` })
              .min(0, { error: `expected a whole number from 0 to ${maxSeed}` })
              .max(maxSeed, { error: `expected a whole number from 0 to ${maxSeed}` })
              .optional(),
          },
          { error: 'expected an object' },
        )
        .optional(),
    },
    { error: 'expected an object with input and parameters' },
  ),
});

/** What each object of the body takes, for the message about an unknown field in it. */
function knownFields(objectPath: string): string {
  if (objectPath === '') return 'hx models take model, prompt, duration and metadata; other settings go in metadata.parameters';
  if (objectPath === 'metadata') return 'metadata takes input and parameters';
  if (objectPath === 'metadata.input') return 'metadata.input takes prompt and media';
  if (objectPath === 'metadata.parameters') return 'metadata.parameters takes resolution, ratio, duration, watermark and seed';
  return 'media items take type and url';
}

/** A top-level field and its copy inside metadata: either may be given, and when both are they must agree. */
function agreed<Value>(top: Value | undefined, nested: Value | undefined, topPath: string, nestedPath: string): Value | undefined {
  if (top !== undefined && nested !== undefined && top !== nested) {
    throw fieldError(topPath, `${JSON.stringify(top)} differs from ${nestedPath} (${JSON.stringify(nested)}); keep them equal, or send only one`);
  }
  return nested ?? top;
}

/**
 * The media of each mode (spec part 2): none for text-to-video, exactly one `first_frame`
 * for image-to-video (no last frame, continuation or audio), 1 to 9 `reference_image` items
 * for reference-to-video, referred to in the prompt as `[Image n]` in their order.
 */
function checkHxMedia(items: ReadonlyArray<{ type: string; url: string }>, mode: HxMode, model: string): Array<Record<string, string>> {
  const type = mode === 'i2v' ? 'first_frame' : 'reference_image';
  if (mode === 't2v') {
    if (items.length > 0) throw fieldError(mediaPath, `${model} makes video from text and takes no media; use hx-1.0-i2v or hx-1.0-r2v for images`);
    return [];
  }
  const media = items.map((item, index) => {
    if (item.type !== type) throw fieldError(`${mediaPath}[${index}].type`, `${model} takes only ${type} items`);
    return { type, url: checkHxImageReference(item.url, `${mediaPath}[${index}].url`) };
  });
  if (mode === 'i2v' && media.length !== 1) throw fieldError(mediaPath, media.length === 0 ? 'required: exactly one first_frame' : 'exactly one first_frame; hx-1.0-i2v takes no last frame');
  if (mode === 'r2v' && media.length === 0) throw fieldError(mediaPath, `required: 1 to ${maxReferenceImages} reference_image items, named [Image 1]... in the prompt`);
  if (mode === 'r2v' && media.length > maxReferenceImages) throw fieldError(mediaPath, `at most ${maxReferenceImages} reference_image items`);
  return media;
}

/**
 * Reads an hx submission (spec part 2, the `hx-` column) and maps it onto HappyHorse's body
 * on DashScope (upstreams.md §4.4): `metadata.input` and `metadata.parameters` become the
 * upstream's `input` and `parameters`; the top-level `prompt` and `duration` fill in
 * `input.prompt` and `parameters.duration` when those are missing. `resolution` (default
 * 1080P) and `duration` (default 5) are always sent, since they decide the price; the
 * other defaults (16:9, watermark true) are the upstream's own and left to it. Pure and
 * synchronous, so the estimate and the submit read the request the same way.
 */
export function readHxRequest(request: VideoSubmitRequest): HxVideoJob {
  const mode = hxModelMode(request.model);
  if (request.uploads !== undefined) throw fieldError('metadata', 'hx models take a JSON body with metadata.input; multipart forms are not accepted');
  const body = parseHxFields(hxSchema, request, knownFields);
  const { input, parameters = {} } = body.metadata;

  const prompt = agreed(body.prompt, input.prompt, 'prompt', 'metadata.input.prompt');
  if (mode !== 'i2v' && (prompt === undefined || prompt.trim() === '')) {
    throw fieldError('metadata.input.prompt', `${prompt === undefined ? 'required' : 'must not be empty'}: ${body.model} needs a prompt${mode === 'r2v' ? ' that names its references ([Image 1]...)' : ''}`);
  }
  const media = checkHxMedia(input.media ?? [], mode, body.model);

  const durationPath = parameters.duration === undefined && body.duration !== undefined ? 'duration' : 'metadata.parameters.duration';
  const seconds = agreed(body.duration, parameters.duration, 'duration', 'metadata.parameters.duration') ?? 5;
  if (seconds < 3 || seconds > 15) throw fieldError(durationPath, 'expected 3 to 15 seconds');
  if (parameters.ratio !== undefined) {
    if (mode === 'i2v') throw fieldError('metadata.parameters.ratio', 'image-to-video keeps the aspect of its first frame; omit ratio');
    if (!ratios.includes(parameters.ratio)) throw fieldError('metadata.parameters.ratio', `expected one of ${ratios.join(', ')}`);
  }
  const resolution = parameters.resolution ?? '1080P';
  const tier = resolution.toLowerCase() as HxTier;

  return {
    mode,
    input: { ...(prompt === undefined ? {} : { prompt }), ...(media.length === 0 ? {} : { media }) },
    parameters: {
      resolution,
      ...(parameters.ratio === undefined ? {} : { ratio: parameters.ratio }),
      duration: seconds,
      ...(parameters.watermark === undefined ? {} : { watermark: parameters.watermark }),
      ...(parameters.seed === undefined ? {} : { seed: parameters.seed }),
    },
    seconds,
    tier,
    details: { seconds, resolution: tier },
  };
}

/** What a job will cost: its seconds at its tier (the `resolution_multipliers` key: `720p` or `1080p`). */
export function hxJobUsage(job: HxVideoJob): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: job.seconds, resolution: job.tier, source: 'estimated' };
}
