import { fieldError } from '../../core/index.js';
import { wnMediaFormats, type MediaKind } from './media-formats.js';
import { checkMediaReference } from './media-reference.js';

/** One `metadata.input.media[]` item as the client sent it. */
export interface WnMediaItem {
  type: string;
  url: string;
  reference_voice?: string | undefined;
}

interface MediaRule {
  kind: MediaKind;
  max: number;
}

/** Media types by wn2.7 mode and how many of each (spec part 2, media types). */
const mediaRules: Record<'t2v' | 'i2v' | 'r2v', Record<string, MediaRule>> = {
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

/** The checked media items, as the upstream gets them, and how many of each type. */
export interface WnCheckedMedia {
  media: Array<Record<string, string>>;
  count(type: string): number;
}

/**
 * Checks a wn2.7 request's `metadata.input.media[]` against its mode: text-to-video takes
 * none; image-to-video one `first_frame` (with at most one `last_frame` and one
 * `driving_audio`) or one `first_clip` to continue; reference-to-video 1 to 5
 * `reference_image` and `reference_video` items together, at most one `first_frame`, and a
 * `reference_voice` audio URL on a reference item. Every URL is checked for its kind.
 */
export function checkWnNestedMedia(items: readonly WnMediaItem[], mode: 't2v' | 'i2v' | 'r2v', model: string): WnCheckedMedia {
  const rules = mediaRules[mode];
  if (mode === 't2v' && items.length > 0) throw fieldError(mediaPath, `${model} makes video from text and takes no media; use a wn2.7 i2v or r2v model for frames and references`);
  const counts = new Map<string, number>();
  const count = (type: string) => counts.get(type) ?? 0;
  const media = items.map((item, index) => {
    const rule = rules[item.type];
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
