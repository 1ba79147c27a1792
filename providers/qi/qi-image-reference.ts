import { fieldError, isBase64Text, sniffBase64ImageType, type FieldPath } from '../../core/index.js';
import { qiImageMimeTypes } from './qi-image-types.js';

/** An input image as the client gave it, with where it was given. */
export interface QiImageInput {
  value: string;
  path: FieldPath;
}

/** What an input image is: a URL the upstream may fetch, or inline data as a data: URI. */
export type QiImageReference = { kind: 'url'; url: string } | { kind: 'data'; uri: string };

/**
 * Classifies an input image without any I/O: an http(s) URL is kept as given; a `data:` URI
 * is kept for the media guard to decode and check; raw base64 becomes a data: URI typed from
 * its magic bytes (DashScope takes base64 only as a data URI, upstreams.md §4.3). Anything
 * else, or base64 that is not PNG, JPEG or WebP, is a 400 naming the field.
 */
export function classifyQiImage(input: QiImageInput): QiImageReference {
  const value = input.value.trim();
  if (value === '') throw fieldError(input.path, 'must not be empty; send an http(s) URL, a data: URI or base64 image data');
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch (error) {
      throw fieldError(input.path, 'is not a valid URL', error);
    }
    return { kind: 'url', url: value };
  }
  if (/^data:/i.test(value)) return { kind: 'data', uri: value };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (scheme !== null) throw fieldError(input.path, `${scheme[1]}: URLs are not supported; send an http(s) URL, a data: URI or base64 image data`);
  const base64 = value.replace(/\s+/g, '');
  if (!isBase64Text(base64)) {
    throw fieldError(input.path, 'expected an http(s) URL, a data: URI or base64 image data');
  }
  const mimeType = sniffBase64ImageType(base64, qiImageMimeTypes);
  if (mimeType === undefined) throw fieldError(input.path, 'is neither an http(s) URL nor a data: URI, and as base64 it is not a PNG, JPEG or WebP image');
  return { kind: 'data', uri: `data:${mimeType};base64,${base64}` };
}
