import { z } from 'zod';
import { booleanField, fieldError, type VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';
import { wnMediaFormats } from './media-formats.js';
import { checkMediaReference } from './media-reference.js';
import { nestedVideoBodySchema } from './nested-video-body-schema.js';
import { readNestedVideoRequest, type NestedVideoMode, type NestedVideoRules } from './read-nested-video-request.js';
import { checkWnNestedMedia } from './wn-nested-media.js';

const ratios = ['16:9', '9:16', '1:1', '4:3', '3:4'];

/** The wn2.7 body of spec part 2: the common nested body with a negative prompt, a soundtrack, reference voices and prompt_extend. */
const wnNestedSchema = nestedVideoBodySchema({
  input: {
    negative_prompt: z.string({ error: 'expected a string' }).max(500, { error: 'at most 500 characters' }).optional(),
    audio_url: z.string({ error: 'expected the URL of a WAV or MP3 file' }).optional(),
  },
  mediaItem: { reference_voice: z.string({ error: 'expected the URL of a WAV or MP3 file' }).optional() },
  parameters: { prompt_extend: booleanField.optional() },
  ratios,
});

/**
 * wn2.7's rules (spec part 2, the `wn2.7` column; upstreams.md §4.2): `resolution` defaults
 * to 720P (DashScope's own is 1080P); durations 2 to 15 seconds, 2 to 10 with reference
 * videos; a soundtrack on text-to-video only. prompt_extend (DashScope's default true) and
 * watermark (false) are left to the upstream unless given.
 */
const wnNestedRules: NestedVideoRules<z.output<typeof wnNestedSchema>> = {
  schema: wnNestedSchema,
  takenBy: 'wn2.7 models',
  fieldLists: {
    input: 'prompt, negative_prompt, audio_url and media',
    parameters: 'resolution, ratio, duration, prompt_extend, watermark and seed',
    mediaItem: 'type, url and, on wn2.7-r2v, reference_voice',
  },
  multipartRefusal: 'wn2.7 models take a JSON body with metadata.input; multipart forms are for wn2.5',
  referenceNaming: '图1, 视频1...',
  ratios,
  imageToVideoRatioRefusal: 'image-to-video keeps the aspect of its first frame or clip; omit ratio',
  defaultResolution: '720P',
  readInput(input, mode, model) {
    if (input.audio_url !== undefined && mode !== 't2v') {
      throw fieldError('metadata.input.audio_url', `only wn2.7 text-to-video takes a soundtrack${mode === 'i2v' ? '; add a driving_audio media item to drive the first frame' : ''}`);
    }
    const audioUrl = input.audio_url === undefined ? undefined : checkMediaReference(input.audio_url, 'metadata.input.audio_url', wnMediaFormats.audio);
    const media = checkWnNestedMedia(input.media ?? [], mode, model);
    const longest = mode === 'r2v' && media.count('reference_video') > 0 ? 10 : 15;
    return {
      input: {
        ...(input.negative_prompt === undefined ? {} : { negative_prompt: input.negative_prompt }),
        ...(audioUrl === undefined ? {} : { audio_url: audioUrl }),
        ...(media.media.length === 0 ? {} : { media: media.media }),
      },
      durations: { shortest: 2, longest, ...(longest === 10 ? { reason: 'when reference videos are given' } : {}) },
    };
  },
  extraParameters: (parameters) => (parameters.prompt_extend === undefined ? {} : { prompt_extend: parameters.prompt_extend }),
};

/**
 * Reads a wn2.7 submission (spec part 2, the `wn2.7` column) by {@link readNestedVideoRequest}
 * with wn2.7's rules; the upstream paths of a refusal come back under `metadata.`.
 */
export function readWnNestedRequest(request: VideoSubmitRequest, mode: NestedVideoMode): DashScopeVideoJob {
  return readNestedVideoRequest(request, mode, wnNestedRules);
}
