import { z } from 'zod';
import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { booleanField, fieldError, ownEntry } from '../../core/kit/index.js';
import type { DashScopeVideoFamily, DashScopeVideoJob, VideoTier } from './dashscope-video-family.js';
import { checkMediaReference, wnMediaFormats, type MediaKind } from './media-reference.js';
import { nestedVideoBodySchema, readNestedVideoRequest, type NestedVideoMode } from './read-nested-video-request.js';
import { readWnFlatRequest } from './read-wn-flat-request.js';

/** Which rules a wn model follows: the flat wn2.5 fields or the nested wn2.7 ones, and its mode. */
type WnModelKind = { family: 'wn2.5'; mode: 't2v' | 'i2v' } | { family: 'wn2.7'; mode: NestedVideoMode };

/** The tiers each wn version makes (spec part 2: wn2.5 480p/720p/1080p, wn2.7 720P/1080P). */
export const wnTiers: Record<WnModelKind['family'], readonly VideoTier[]> = { 'wn2.5': ['480p', '720p', '1080p'], 'wn2.7': ['720p', '1080p'] };

/**
 * The rules of a client model id, read from the id itself (spec part 2's ids:
 * `wn2.5-t2v-preview`, `wn2.5-i2v-preview`, `wn2.7-t2v-2026-04-25`, `wn2.7-i2v-2026-04-25`,
 * `wn2.7-r2v`; later dated builds of the same version and mode follow the same rules), or the
 * 400 for a wn model id without rules.
 */
function wnModelKind(model: string): WnModelKind {
  const [, version, mode] = /^wn(2\.5|2\.7)-(t2v|i2v|r2v)(?:-|$)/.exec(model) ?? [];
  if (version === '2.7') return { family: 'wn2.7', mode: mode as NestedVideoMode };
  if (version === '2.5' && mode !== 'r2v') return { family: 'wn2.5', mode: mode as 't2v' | 'i2v' };
  throw invalidRequest(
    `model: "${model}" is not a wn video model; the wn family is wn2.5-t2v-*, wn2.5-i2v-*, wn2.7-t2v-*, wn2.7-i2v-* and wn2.7-r2v*`,
    { param: 'model' },
  );
}

/** Media types by wn2.7 mode and how many of each (spec part 2, media types). */
const mediaRules: Record<NestedVideoMode, Record<string, { kind: MediaKind; max: number }>> = {
  t2v: {},
  i2v: {
    first_frame: { kind: 'image', max: 1 },
    last_frame: { kind: 'image', max: 1 },
    driving_audio: { kind: 'audio', max: 1 },
    first_clip: { kind: 'video', max: 1 },
  },
  r2v: {
    reference_image: { kind: 'image', max: 5 },
    reference_video: { kind: 'video', max: 5 },
    first_frame: { kind: 'image', max: 1 },
  },
};

/** Images plus videos a wn2.7-r2v request may reference (spec part 2, Limits). */
const maxReferences = 5;
const mediaPath = 'metadata.input.media';

const joinTypes = (types: string[]) => (types.length < 2 ? types.join('') : `${types.slice(0, -1).join(', ')} or ${types.at(-1)}`);

/**
 * Checks a wn2.7 request's `metadata.input.media[]` against its mode: text-to-video takes
 * none; image-to-video one `first_frame` (with at most one `last_frame` and one
 * `driving_audio`) or one `first_clip` to continue; reference-to-video 1 to 5
 * `reference_image` and `reference_video` items together, at most one `first_frame`, and a
 * `reference_voice` audio URL on a reference item. Every URL is checked for its kind.
 * Returns the items as the upstream gets them, and how many of each type.
 */
function checkWnMedia(items: ReadonlyArray<{ type: string; url: string; reference_voice?: string | undefined }>, mode: NestedVideoMode, model: string) {
  const rules = mediaRules[mode];
  if (mode === 't2v' && items.length > 0) throw fieldError(mediaPath, `${model} makes video from text and takes no media; use a wn2.7 i2v or r2v model for frames and references`);
  const counts = new Map<string, number>();
  const count = (type: string) => counts.get(type) ?? 0;
  const media = items.map((item, index) => {
    const rule = ownEntry(rules, item.type);
    if (rule === undefined) throw fieldError(`${mediaPath}[${index}].type`, `${model} takes ${joinTypes(Object.keys(rules))}`);
    counts.set(item.type, count(item.type) + 1);
    if (count(item.type) > rule.max) throw fieldError(mediaPath, `at most ${rule.max} ${item.type} item${rule.max === 1 ? '' : 's'}`);
    const checked: Record<string, string> = { type: item.type, url: checkMediaReference(item.url, `${mediaPath}[${index}].url`, wnMediaFormats[rule.kind]) };
    if (item.reference_voice !== undefined) {
      const where = `${mediaPath}[${index}].reference_voice`;
      if (mode !== 'r2v') throw fieldError(where, 'only wn2.7-r2v takes a reference voice');
      if (item.type !== 'reference_image' && item.type !== 'reference_video') throw fieldError(where, 'a voice belongs on a reference_image or reference_video item');
      checked.reference_voice = checkMediaReference(item.reference_voice, where, wnMediaFormats.audio);
    }
    return checked;
  });

  if (mode === 'i2v') {
    if (count('first_frame') === 0 && count('last_frame') > 0) throw fieldError(mediaPath, 'a last_frame needs a first_frame');
    if (count('first_frame') === 0 && count('driving_audio') > 0) throw fieldError(mediaPath, 'driving_audio animates a first frame; add a first_frame');
    if (count('first_frame') === 0 && count('first_clip') === 0) throw fieldError(mediaPath, 'required: a first_frame (image to video) or a first_clip (to continue a video)');
    if (count('first_frame') > 0 && count('first_clip') > 0) throw fieldError(mediaPath, 'a first_clip continues a video and cannot be combined with a first_frame; send one of them');
  }
  if (mode === 'r2v') {
    const references = count('reference_image') + count('reference_video');
    if (references === 0) throw fieldError(mediaPath, 'required: at least one reference_image or reference_video');
    if (references > maxReferences) throw fieldError(mediaPath, `at most ${maxReferences} reference images and videos together`);
  }
  return { media, count };
}

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
 * Reads a wn submission by its model's rules: the flat wn2.5 fields, or the nested body by
 * {@link readNestedVideoRequest} with wn2.7's rules (spec part 2, the `wn2.7` column;
 * upstreams.md §4.2): `resolution` defaults to 720P (DashScope's own is 1080P); durations 2
 * to 15 seconds, 2 to 10 with reference videos; a soundtrack on text-to-video only.
 * prompt_extend (DashScope's default true) and watermark (false) are left to the upstream
 * unless given; the upstream paths of a refusal come back under `metadata.`. Pure and
 * synchronous, so the estimate (before any quota is held) and the submit read the request
 * the same way; every refusal is a 400 naming the field.
 */
export function readWnVideoRequest(request: VideoSubmitRequest): DashScopeVideoJob {
  const kind = wnModelKind(request.model);
  if (kind.family === 'wn2.5') return readWnFlatRequest(request, kind.mode);
  return readNestedVideoRequest(request, kind.mode, {
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
      const media = checkWnMedia(input.media ?? [], mode, model);
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
  });
}

/** The wn family (spec part 2): wn2.5 with flat fields, wn2.7 with the nested body, on Wan's DashScope models. */
export const wnFamily: DashScopeVideoFamily = {
  name: 'wn',
  readRequest: readWnVideoRequest,
  tiersOf: (model) => wnTiers[wnModelKind(model).family],
};
