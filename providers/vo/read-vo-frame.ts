import { checkImageBytes, readImageSourceText, type ImageFormats } from '../../core/index.js';

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
 * Where one frame comes from, checked without any I/O: an http(s) URL (fetched later through
 * the media guard, since the upstream takes only inline bytes, upstreams.md §1.11), a
 * `data:` URI or raw base64 (made a data: URI, so the operator's size cap applies to it
 * too), or a multipart file.
 */
export type VoFrameSource =
  | { field: VoFrameField; kind: 'fetch'; url: string }
  | { field: VoFrameField; kind: 'upload'; data: Buffer };

const base64DataUri = /^data:[^,]*;base64,/i;

/** The first 12 bytes of base64 text: enough for every signature of the frame formats (WebP's `RIFF....WEBP`). */
const headOf = (base64: string): Buffer => Buffer.from(base64.slice(0, 16), 'base64');

/**
 * Classifies a frame given as text and checks what can be checked before any fetch: the
 * scheme, the base64 alphabet, and the image type of inline base64 by its magic numbers.
 * @throws GatewayError 400 naming `field`.
 */
export function readVoFrameText(value: string, field: VoFrameField): VoFrameSource {
  const source = readImageSourceText(value, field);
  // A percent-encoded data: URI is left to the media fetcher, which decodes both kinds.
  const prefix = base64DataUri.exec(source.url)?.[0];
  if (prefix !== undefined) checkImageBytes(headOf(source.url.slice(prefix.length).replace(/\s+/g, '')), field, voFrameFormats);
  return { field, kind: 'fetch', url: source.url };
}
