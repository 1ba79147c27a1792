import type { FetchedMedia, MediaFetcher, MediaFetchOptions } from '../contracts/provider/media-fetcher.js';
import { GatewayError } from '../errors/gateway-error.js';
import { invalidRequest } from '../errors/error-codes.js';
import { mediaErrorAboutField } from '../http/media-errors.js';
import { isBase64Text } from '../validation/base64-text.js';
import { sniffImageType } from './sniff-image-type.js';

// The image a client sends for an upstream that takes inline bytes: given as a URL, a data:
// URI, raw base64 or a file, fetched through the media guard, and sent as the type its bytes
// show, whatever its URL, headers or URI declared.

/** The image formats an upstream takes for one use, and the words a refusal names them with. */
export interface ImageFormats {
  /** The MIME types taken, as {@link sniffImageType} tells them. */
  types: readonly string[];
  /** The formats as a refusal lists them: `png, jpeg or webp`. */
  names: string;
  /** What the images are to the upstream, for the refusal of another format: `frames`, `references`. */
  usedAs: string;
  /** The types bytes are told as before they are judged; every type the sniffer knows when absent. */
  told?: readonly string[];
}

/**
 * The types to pass the media fetcher as `allowedMimeTypes` for an image of `formats`: a URL
 * whose Content-Type already names another format is refused before its body is read, while
 * `image/jpg` (which some hosts send for JPEG) and octet-stream are let through, and the bytes
 * decide then.
 */
export const fetchableImageTypes = (formats: ImageFormats): readonly string[] => [...formats.types, 'image/jpg', 'application/octet-stream'];

/**
 * The MIME type `bytes` show, when it is one of `formats`.
 * @throws GatewayError 400 `invalid_request` naming `param`: bytes of no image type, or of a
 *   type the upstream does not take (`bmp images are not accepted as frames; send png, ...`).
 */
export function checkImageBytes(bytes: Uint8Array, param: string, formats: ImageFormats): string {
  const mimeType = sniffImageType(bytes, formats.told);
  if (mimeType === undefined) throw invalidRequest(`${param}: the data is not a ${formats.names} image`, { param });
  if (!formats.types.includes(mimeType)) {
    throw invalidRequest(`${param}: ${mimeType.slice('image/'.length)} images are not accepted as ${formats.usedAs}; send ${formats.names}`, { param });
  }
  return mimeType;
}

/**
 * The image type the start of base64 text shows, among `among` (see {@link sniffImageType}),
 * without decoding the rest: for inline data refused before any quota is held. `bytes` is how
 * many bytes to decode; 12 tell png, jpeg, webp and gif.
 */
export const sniffBase64ImageType = (base64: string, among?: readonly string[], bytes = 12): string | undefined =>
  sniffImageType(Buffer.from(base64.slice(0, Math.ceil(bytes / 3) * 4), 'base64'), among);

/** An image given as text, as the media fetcher takes it: an http(s) URL, a data: URI, or raw base64 wrapped into one. */
export interface ImageSourceText {
  kind: 'http' | 'data' | 'base64';
  url: string;
}

const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * Reads an image the client gave as text, without any I/O: an http(s) URL (for the SSRF
 * guard), a `data:` URI, or raw base64, made a data: URI so the operator's size cap applies
 * to it too. White space around the text and inside base64 is dropped.
 * @throws GatewayError 400 `invalid_request` naming `param` for another scheme (`ftp:`,
 *   `file:`) or text that is none of the three.
 */
export function readImageSourceText(text: string, param: string): ImageSourceText {
  const trimmed = text.trim();
  const named = scheme.exec(trimmed)?.[1]?.toLowerCase();
  if (named === 'http' || named === 'https') return { kind: 'http', url: trimmed };
  if (named === 'data') return { kind: 'data', url: trimmed };
  if (named !== undefined) throw invalidRequest(`${param}: ${named}: addresses are not fetched; send an https URL, a data: URI or base64 image data`, { param });
  const compact = trimmed.replace(/\s+/g, '');
  if (!isBase64Text(compact)) throw invalidRequest(`${param}: expected an https URL, a data: URI or base64 image data`, { param });
  return { kind: 'base64', url: `data:application/octet-stream;base64,${compact}` };
}

/**
 * Fetches an image through the media guard (`options` as `MediaFetcher.fetch` takes them)
 * and checks its bytes against `formats` ({@link checkImageBytes}).
 * @throws GatewayError 400 naming `param`: the guard's refusal with the field in front (a type
 *   its headers already showed as another: `the image is not png, jpeg or webp`), or bytes of
 *   another format.
 */
export async function fetchImage(media: MediaFetcher, url: string, param: string, formats: ImageFormats, options: MediaFetchOptions): Promise<FetchedMedia> {
  let fetched: FetchedMedia;
  try {
    fetched = await media.fetch(url, options);
  } catch (error) {
    if (GatewayError.is(error) && error.statusCode === 400 && error.code === 'unsupported_media_type') {
      throw invalidRequest(`${param}: the image is not ${formats.names}; convert it to one of them`, { param, cause: error });
    }
    throw mediaErrorAboutField(error, param);
  }
  return { mimeType: checkImageBytes(fetched.data, param, formats), data: fetched.data };
}
