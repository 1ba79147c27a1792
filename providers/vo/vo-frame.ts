import type { MediaFetcher } from '../../core/index.js';
import { checkImageBytes, fetchableImageTypes, fetchImage, readImageSourceText, type ImageFormats } from '../../core/kit/index.js';

/**
 * The frame formats the family takes for `image` and `lastFrame`, as their bytes show them;
 * bytes are told among these and gif, so a refusal can name gif.
 */
export const voFrameFormats: ImageFormats = {
  types: ['image/png', 'image/jpeg', 'image/webp'],
  names: 'png, jpeg or webp',
  usedAs: 'frames',
  told: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
};

/** The client fields that carry a frame. */
export type VoFrameField = 'image' | 'lastFrame';

/**
 * Where one frame comes from, checked without I/O: a URL or data: URI (raw base64 made one) to
 * fetch later, since the upstream takes only inline bytes (upstreams.md §1.11), or a file.
 */
export type VoFrameSource = { field: VoFrameField; kind: 'fetch'; url: string } | { field: VoFrameField; kind: 'upload'; data: Buffer };

/** A frame as the upstream takes it (upstreams.md §1.11, js-genai `imageToMldev`). */
export interface VoInlineImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

/** A frame given as text, its scheme, base64 alphabet and inline image type checked before any fetch; a 400 naming `field` otherwise. */
export function readVoFrameText(value: string, field: VoFrameField): VoFrameSource {
  const source = readImageSourceText(value, field);
  // A percent-encoded data: URI is left to the media fetcher, which decodes both kinds.
  const prefix = /^data:[^,]*;base64,/i.exec(source.url)?.[0];
  // The first 12 bytes (16 base64 characters) tell every frame format (WebP's `RIFF....WEBP`).
  if (prefix !== undefined) checkImageBytes(Buffer.from(source.url.slice(prefix.length).replace(/\s+/g, '').slice(0, 16), 'base64'), field, voFrameFormats);
  return { field, kind: 'fetch', url: source.url };
}

/**
 * One frame as the inline bytes the upstream takes, typed as its bytes show: a file as it came,
 * a URL or data: URI through the media guard. A 400 naming the field for a frame that cannot
 * be read or is not a png, jpeg or webp image.
 */
export async function fetchVoFrame(source: VoFrameSource, media: MediaFetcher, signal: AbortSignal): Promise<VoInlineImage> {
  const frame =
    source.kind === 'upload'
      ? { mimeType: checkImageBytes(source.data, source.field, voFrameFormats), data: source.data }
      : await fetchImage(media, source.url, source.field, voFrameFormats, { allowedMimeTypes: fetchableImageTypes(voFrameFormats), signal });
  return { bytesBase64Encoded: frame.data.toString('base64'), mimeType: frame.mimeType };
}
