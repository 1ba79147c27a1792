import { fetchableImageTypes, fetchImage, readImageSourceText, type ImageFormats, type MediaFetcher } from '../../../core/index.js';

/** A reference image as the upstream gets it: `inlineData` of a user part. */
export interface GxInlineImage {
  mimeType: string;
  /** Base64 of the image bytes. */
  data: string;
}

/** The reference image formats the spec accepts for the vendor-G models, as their bytes show them. */
export const gxReferenceImageFormats: ImageFormats = {
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'],
  names: 'png, jpeg, webp, heic or heif',
  usedAs: 'references',
};

const fetchableTypes = fetchableImageTypes(gxReferenceImageFormats);

/**
 * Reads one reference image as the client gave it (an http(s) URL through the SSRF guard, a
 * data: URI, or raw base64) and checks its format by its magic numbers, whatever its URL,
 * Content-Type or data URI claimed: the MIME type sent upstream is the one the bytes show.
 * @throws GatewayError 400 naming `param` for a source that cannot be read, refused by the
 *   media guard, too large, or not a png, jpeg, webp, heic or heif image (gif, bmp, tiff…).
 */
export async function fetchGxReferenceImage(source: string, param: string, media: MediaFetcher, signal: AbortSignal): Promise<GxInlineImage> {
  const { kind, url } = readImageSourceText(source, param);
  const image = await fetchImage(media, url, param, gxReferenceImageFormats, kind === 'http' ? { allowedMimeTypes: fetchableTypes, signal } : { signal });
  return { mimeType: image.mimeType, data: image.data.toString('base64') };
}
