import { fieldError } from '../../core/index.js';
import type { HxMode } from './hx-family.js';
import { hxImageFormat } from './media-formats.js';
import { checkMediaReference } from './media-reference.js';

/** Reference images an hx-1.0-r2v request takes (spec part 2, Limits). */
const maxReferenceImages = 9;
const mediaPath = 'metadata.input.media';

/**
 * The media of each hx mode (spec part 2): none for text-to-video, exactly one
 * `first_frame` for image-to-video (no last frame, continuation or audio), 1 to 9
 * `reference_image` items for reference-to-video, referred to in the prompt as `[Image n]`
 * in their order. Returns the items as the upstream gets them.
 */
export function checkHxNestedMedia(items: ReadonlyArray<{ type: string; url: string }>, mode: HxMode, model: string): Array<Record<string, string>> {
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
