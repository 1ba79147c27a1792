import { z } from 'zod';
import type { VideoSubmitRequest } from '../../core/index.js';
import { fieldError, parseWnFields } from './wn-field-error.js';
import { checkWnMediaReference } from './wn-media-reference.js';
import { checkWnNestedMedia } from './wn-nested-media.js';
import type { WnTier } from './wn-model-kind.js';
import type { WnVideoJob } from './wn-video-job.js';

const maxSeed = 2_147_483_647;
const ratios = ['16:9', '9:16', '1:1', '4:3', '3:4'];
const booleanField = z.boolean({ error: 'expected true or false' });
const wholeSeconds = z.int({ error: 'expected a whole number of seconds' });
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/** The wn2.7 body of spec part 2: top-level model, prompt and duration, and metadata {input, parameters}. */
const nestedSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  duration: wholeSeconds.optional(),
  metadata: z.strictObject(
    {
      input: z.strictObject(
        {
          prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
          negative_prompt: z.string({ error: 'expected a string' }).max(500, { error: 'at most 500 characters' }).optional(),
          audio_url: z.string({ error: 'expected the URL of a WAV or MP3 file' }).optional(),
          media: z
            .array(
              z.strictObject(
                {
                  type: z.string({ error: 'expected the media type as a string' }),
                  url: z.string({ error: 'expected the URL as a string' }),
                  reference_voice: z.string({ error: 'expected the URL of a WAV or MP3 file' }).optional(),
                },
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
            prompt_extend: booleanField.optional(),
            watermark: booleanField.optional(),
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
  if (objectPath === '') return 'wn2.7 models take model, prompt, duration and metadata; other settings go in metadata.parameters';
  if (objectPath === 'metadata') return 'metadata takes input and parameters';
  if (objectPath === 'metadata.input') return 'metadata.input takes prompt, negative_prompt, audio_url and media';
  if (objectPath === 'metadata.parameters') return 'metadata.parameters takes resolution, ratio, duration, prompt_extend, watermark and seed';
  return 'media items take type, url and, on wn2.7-r2v, reference_voice';
}

/**
 * A top-level field and its copy inside metadata: either may be given, and when both are
 * they must agree (spec part 2: "duration: keep equal to metadata.parameters.duration").
 */
function agreed<Value>(top: Value | undefined, nested: Value | undefined, topPath: string, nestedPath: string): Value | undefined {
  if (top !== undefined && nested !== undefined && top !== nested) {
    throw fieldError(topPath, `${JSON.stringify(top)} differs from ${nestedPath} (${JSON.stringify(nested)}); keep them equal, or send only one`);
  }
  return nested ?? top;
}

/**
 * Reads a wn2.7 submission (spec part 2, the `wn2.7` column) and maps it onto the media
 * protocol of upstreams.md §4.2: `metadata.input` and `metadata.parameters` become the
 * upstream's `input` and `parameters`. The top-level `prompt` and `duration` fill in
 * `input.prompt` and `parameters.duration` when those are missing. `resolution` (default
 * 720P, where DashScope's is 1080P) and `duration` (default 5) are always sent, since they
 * decide the price; other defaults (16:9, prompt_extend true, watermark false) are
 * DashScope's own and left to it.
 */
export function readWnNestedRequest(request: VideoSubmitRequest, mode: 't2v' | 'i2v' | 'r2v'): WnVideoJob {
  if (request.uploads !== undefined) throw fieldError('metadata', 'wn2.7 models take a JSON body with metadata.input; multipart forms are for wn2.5');
  const body = parseWnFields(nestedSchema, request, '', knownFields);
  const model = body.model;
  const { input, parameters = {} } = body.metadata;

  const prompt = agreed(body.prompt, input.prompt, 'prompt', 'metadata.input.prompt');
  if (mode !== 'i2v' && (prompt === undefined || prompt.trim() === '')) {
    throw fieldError('metadata.input.prompt', `${prompt === undefined ? 'required' : 'must not be empty'}: ${model} needs a prompt${mode === 'r2v' ? ' that names its references (图1, 视频1...)' : ''}`);
  }
  if (input.audio_url !== undefined && mode !== 't2v') {
    throw fieldError('metadata.input.audio_url', `only wn2.7 text-to-video takes a soundtrack${mode === 'i2v' ? '; add a driving_audio media item to drive the first frame' : ''}`);
  }
  const audioUrl = input.audio_url === undefined ? undefined : checkWnMediaReference(input.audio_url, 'metadata.input.audio_url', 'audio');
  const media = checkWnNestedMedia(input.media ?? [], mode, model);

  const durationPath = parameters.duration === undefined && body.duration !== undefined ? 'duration' : 'metadata.parameters.duration';
  const seconds = agreed(body.duration, parameters.duration, 'duration', 'metadata.parameters.duration') ?? 5;
  const longest = mode === 'r2v' && media.count('reference_video') > 0 ? 10 : 15;
  if (seconds < 2 || seconds > longest) {
    throw fieldError(durationPath, `expected 2 to ${longest} seconds${longest === 10 ? ' when reference videos are given' : ''}`);
  }
  if (parameters.ratio !== undefined) {
    if (mode === 'i2v') throw fieldError('metadata.parameters.ratio', 'image-to-video keeps the aspect of its first frame or clip; omit ratio');
    if (!ratios.includes(parameters.ratio)) throw fieldError('metadata.parameters.ratio', `expected one of ${ratios.join(', ')}`);
  }
  const resolution = parameters.resolution ?? '720P';
  const tier = resolution.toLowerCase() as WnTier;

  const upstreamInput: Record<string, unknown> = {
    ...(prompt === undefined ? {} : { prompt }),
    ...(input.negative_prompt === undefined ? {} : { negative_prompt: input.negative_prompt }),
    ...(audioUrl === undefined ? {} : { audio_url: audioUrl }),
    ...(media.media.length === 0 ? {} : { media: media.media }),
  };
  const upstreamParameters: Record<string, unknown> = {
    resolution,
    ...(parameters.ratio === undefined ? {} : { ratio: parameters.ratio }),
    duration: seconds,
    ...(parameters.prompt_extend === undefined ? {} : { prompt_extend: parameters.prompt_extend }),
    ...(parameters.watermark === undefined ? {} : { watermark: parameters.watermark }),
    ...(parameters.seed === undefined ? {} : { seed: parameters.seed }),
  };
  return {
    kind: { family: 'wn2.7', mode },
    input: upstreamInput,
    parameters: upstreamParameters,
    seconds,
    tier,
    details: { seconds, resolution: tier },
    clientField: (upstreamPath) => `metadata.${upstreamPath}`,
  };
}
