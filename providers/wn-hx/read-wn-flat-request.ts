import { z } from 'zod';
import type { VideoSubmitRequest } from '../../core/index.js';
import { booleanField, fieldError, ownEntry, parseClientFields, readFormFields, seedField } from '../../core/kit/index.js';
import type { DashScopeVideoJob, VideoTier } from './dashscope-video-family.js';
import { checkMediaReference, imageDataUri, wnMediaFormats } from './media-reference.js';

const flatFieldList = 'prompt, image, duration, resolution, size, smart_rewrite, generate_audio, audio_url and seed';

const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** The wn2.5 fields of spec part 2, strictly. */
const flatSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  image: z.string({ error: 'expected an image URL, a base64 data URI or base64' }).optional(),
  duration: z.literal([5, 10], { error: 'expected 5 or 10 (seconds)' }).optional(),
  resolution: z.preprocess(lowerCase, z.enum(['480p', '720p', '1080p'], { error: 'expected 480p, 720p or 1080p' })).optional(),
  size: z.string({ error: 'expected width*height as a string' }).regex(/^[1-9][0-9]{0,4}\*[1-9][0-9]{0,4}$/, { error: 'expected width*height, such as 1280*720' }).optional(),
  smart_rewrite: booleanField.optional(),
  generate_audio: booleanField.optional(),
  audio_url: z.string({ error: 'expected an https URL of a WAV or MP3 file' }).optional(),
  seed: seedField.optional(),
});

/** The text-to-video size each tier gets when the client names only a resolution: 16:9 (upstreams.md §4.2). */
const sizeOfTier: Record<VideoTier, string> = { '480p': '832*480', '720p': '1280*720', '1080p': '1920*1080' };

/**
 * The tier of a `width*height` size by its pixel count, so every documented wan2.5 size lands
 * in its tier: 832*480 and 624*624 are 480p, 1280*720, 960*960 and 1088*832 are 720p,
 * 1920*1080, 1440*1440 and 1632*1248 are 1080p.
 */
function tierOfWnSize(size: string): VideoTier {
  const [width, height] = size.split('*').map(Number) as [number, number];
  const pixels = width * height;
  return pixels <= 500_000 ? '480p' : pixels <= 1_200_000 ? '720p' : '1080p';
}

/** Upstream fields by their wn2.5 client names. */
const clientNames: Record<string, string> = {
  'input.prompt': 'prompt',
  'input.img_url': 'image',
  'input.audio_url': 'audio_url',
  'parameters.size': 'size',
  'parameters.resolution': 'resolution',
  'parameters.duration': 'duration',
  'parameters.prompt_extend': 'smart_rewrite',
  'parameters.audio': 'generate_audio',
  'parameters.seed': 'seed',
};

/** The image of the request: the `image` field, or for a multipart body one `image` file. */
function imageOf(request: VideoSubmitRequest, image: string | undefined): string | undefined {
  const files = request.uploads ?? [];
  const stray = files.find((file) => file.field !== 'image');
  if (stray !== undefined) throw fieldError(stray.field, 'unknown file field; wn2.5 takes one image file, as image');
  if (files.length > 1) throw fieldError('image', 'expected one image file');
  if (files.length === 1 && image !== undefined) throw fieldError('image', 'send the image as a file or as a field, not both');
  if (files.length === 1) return imageDataUri(files[0]!.data, 'image', wnMediaFormats.image.inline, 'file');
  return image === undefined ? undefined : checkMediaReference(image, 'image', wnMediaFormats.image, { rawBase64: true });
}

/**
 * Reads a wn2.5 submission (spec part 2, `wn2.5` fields) and maps it onto the flat input of
 * upstreams.md §4.2: text-to-video sends `parameters.size` (from `size`, else the
 * resolution's 16:9 size), image-to-video `input.img_url` and `parameters.resolution` in
 * upper case. `smart_rewrite` is `prompt_extend` and `generate_audio` is `audio`, both sent
 * as false unless asked for (the spec's defaults, where DashScope's are true); `audio` is
 * left to the upstream when a soundtrack is given.
 */
export function readWnFlatRequest(request: VideoSubmitRequest, mode: 't2v' | 'i2v'): DashScopeVideoJob {
  const { uploads: _uploads, ...body } = request;
  // A multipart body carries every field as text; core already made numbers of duration and seed.
  const read = request.uploads === undefined ? body : readFormFields(body, { booleans: ['smart_rewrite', 'generate_audio'] });
  const fields = parseClientFields(flatSchema, read, { unknownField: (field) => `${field}: unknown field; wn2.5 models take ${flatFieldList}` });
  const model = request.model;
  const image = imageOf(request, fields.image);
  if (mode === 't2v' && image !== undefined) throw fieldError('image', `${model} makes video from text; use wn2.5-i2v-preview to start from an image`);
  if (mode === 'i2v' && image === undefined) throw fieldError('image', `required: ${model} starts from this image (an http(s) URL, a base64 data URI or base64)`);
  if (mode === 'i2v' && fields.size !== undefined) throw fieldError('size', 'only text-to-video takes a size; image-to-video keeps the image\'s aspect, so set resolution instead');
  const prompt = fields.prompt;
  if (mode === 't2v' && (prompt === undefined || prompt.trim() === '')) throw fieldError('prompt', prompt === undefined ? 'required' : 'must not be empty');
  const audioUrl = fields.audio_url === undefined ? undefined : checkMediaReference(fields.audio_url, 'audio_url', wnMediaFormats.audio, { httpsOnly: true });

  let tier: VideoTier = fields.resolution ?? '720p';
  if (fields.size !== undefined) {
    tier = tierOfWnSize(fields.size);
    if (fields.resolution !== undefined && fields.resolution !== tier) {
      throw fieldError('size', `${fields.size} is a ${tier} size but resolution says ${fields.resolution}; send one of them, or both for the same tier`);
    }
  }
  const seconds = fields.duration ?? 5;
  const size = mode === 't2v' ? (fields.size ?? sizeOfTier[tier]) : undefined;

  const audio = fields.generate_audio ?? (audioUrl === undefined ? false : undefined);
  return {
    input: {
      ...(prompt === undefined ? {} : { prompt }),
      ...(image === undefined ? {} : { img_url: image }),
      ...(audioUrl === undefined ? {} : { audio_url: audioUrl }),
    },
    parameters: {
      ...(size === undefined ? { resolution: tier.toUpperCase() } : { size }),
      duration: seconds,
      prompt_extend: fields.smart_rewrite ?? false,
      ...(audio === undefined ? {} : { audio }),
      ...(fields.seed === undefined ? {} : { seed: fields.seed }),
    },
    seconds,
    tier,
    details: { seconds, resolution: tier, ...(size === undefined ? {} : { size }) },
    clientField: (upstreamPath) => ownEntry(clientNames, upstreamPath) ?? upstreamPath,
  };
}
