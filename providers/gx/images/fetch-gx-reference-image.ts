import { GatewayError, invalidRequest, isBase64Text, mediaErrorAboutField, sniffImageType, type FetchedMedia, type MediaFetcher } from '../../../core/index.js';

/** A reference image as the upstream gets it: `inlineData` of a user part. */
export interface GxInlineImage {
  mimeType: string;
  /** Base64 of the image bytes. */
  data: string;
}

/** The reference image formats the spec accepts for the vendor-G models, as their bytes show them. */
export const gxReferenceImageTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

const acceptedNames = 'png, jpeg, webp, heic or heif';

// Passed to the media fetcher so a URL whose Content-Type already names another format is
// refused before its body is read. Octet-stream is let through: the bytes decide then.
const fetchableTypes: readonly string[] = [...gxReferenceImageTypes, 'image/jpg', 'application/octet-stream'];

const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** A media error with the field it is about in front, so the client knows which image to fix. */
function aboutField(error: unknown, param: string): unknown {
  if (!GatewayError.is(error) || error.statusCode !== 400) return error;
  if (error.code === 'unsupported_media_type') {
    return invalidRequest(`${param}: the image is not ${acceptedNames}; convert it to one of them`, { param, cause: error });
  }
  return mediaErrorAboutField(error, param);
}

/**
 * What to ask the media fetcher for one reference as the client gave it: an http(s) URL
 * (fetched through the SSRF guard), a data: URI, or raw base64 (wrapped into a data: URI so
 * the operator's size cap applies to it too).
 */
function fetchRequest(source: string, param: string): { url: string; allowedMimeTypes?: readonly string[] } {
  const trimmed = source.trim();
  const named = scheme.exec(trimmed)?.[1]?.toLowerCase();
  if (named === 'http' || named === 'https') return { url: trimmed, allowedMimeTypes: fetchableTypes };
  if (named === 'data') return { url: trimmed };
  if (named !== undefined) throw invalidRequest(`${param}: ${named}: addresses are not fetched; send an https URL, a data: URI or base64 image data`, { param });
  const compact = trimmed.replace(/\s+/g, '');
  if (!isBase64Text(compact)) {
    throw invalidRequest(`${param}: expected an https URL, a data: URI or base64 image data`, { param });
  }
  return { url: `data:application/octet-stream;base64,${compact}` };
}

/**
 * Reads one reference image and checks its format by its magic numbers, whatever its URL,
 * Content-Type or data URI claimed: the MIME type sent upstream is the one the bytes show.
 * @throws GatewayError 400 naming `param` for a source that cannot be read, refused by the
 *   media guard, too large, or not a png, jpeg, webp, heic or heif image (gif, bmp, tiff…).
 */
export async function fetchGxReferenceImage(source: string, param: string, media: MediaFetcher, signal: AbortSignal): Promise<GxInlineImage> {
  const { url, allowedMimeTypes } = fetchRequest(source, param);
  let fetched: FetchedMedia;
  try {
    fetched = await media.fetch(url, allowedMimeTypes === undefined ? { signal } : { allowedMimeTypes, signal });
  } catch (error) {
    throw aboutField(error, param);
  }
  const mimeType = sniffImageType(fetched.data);
  if (mimeType === undefined) throw invalidRequest(`${param}: the data is not a ${acceptedNames} image`, { param });
  if (!gxReferenceImageTypes.includes(mimeType)) {
    throw invalidRequest(`${param}: ${mimeType.slice('image/'.length)} images are not accepted as references; send ${acceptedNames}`, { param });
  }
  return { mimeType, data: fetched.data.toString('base64') };
}
