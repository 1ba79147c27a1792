import { checkImageBytes, fetchableImageTypes, fetchImage, readImageSourceText, type ImageFormats, type MediaFetcher } from '../../core/index.js';

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
export type VoFrameSource = { field: VoFrameField; kind: 'fetch'; url: string } | { field: VoFrameField; kind: 'upload'; data: Buffer };

/** A frame as the upstream takes it (upstreams.md §1.11, js-genai `imageToMldev`). */
export interface VoInlineImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

/**
 * Classifies a frame given as text and checks what can be checked before any fetch: the
 * scheme, the base64 alphabet, and the image type of inline base64 by its magic numbers.
 * @throws GatewayError 400 naming `field`.
 */
export function readVoFrameText(value: string, field: VoFrameField): VoFrameSource {
  const source = readImageSourceText(value, field);
  // A percent-encoded data: URI is left to the media fetcher, which decodes both kinds.
  const prefix = /^data:[^,]*;base64,/i.exec(source.url)?.[0];
  // The first 12 bytes (16 base64 characters) tell every frame format (WebP's `RIFF....WEBP`).
  if (prefix !== undefined) checkImageBytes(Buffer.from(source.url.slice(prefix.length).replace(/\s+/g, '').slice(0, 16), 'base64'), field, voFrameFormats);
  return { field, kind: 'fetch', url: source.url };
}

/**
 * Reads one frame into the inline bytes the upstream takes: a file as it came, a URL through
 * the media guard (SSRF checks, size and time caps), a data: URI decoded by the same fetcher.
 * The MIME type sent is the one the bytes show, whatever the URL or its headers claimed.
 * @throws GatewayError 400 naming the field for a frame that cannot be read, is refused by the
 *   guard, is too large, or is not a png, jpeg or webp image.
 */
export async function fetchVoFrame(source: VoFrameSource, media: MediaFetcher, signal: AbortSignal): Promise<VoInlineImage> {
  const frame =
    source.kind === 'upload'
      ? { mimeType: checkImageBytes(source.data, source.field, voFrameFormats), data: source.data }
      : await fetchImage(media, source.url, source.field, voFrameFormats, { allowedMimeTypes: fetchableImageTypes(voFrameFormats), signal });
  return { bytesBase64Encoded: frame.data.toString('base64'), mimeType: frame.mimeType };
}
