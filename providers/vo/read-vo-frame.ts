import { invalidRequest, isBase64Text, sniffImageType } from '../../core/index.js';
import { voFrameTypes, voSniffBytes, voSniffedTypes } from './vo-frame-types.js';

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

const acceptedNames = 'png, jpeg or webp';
const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const base64DataUri = /^data:[^,]*;base64,/i;

/** 400 unless `bytes` start like a png, jpeg or webp image. */
export function assertVoFrameBytes(bytes: Uint8Array, field: VoFrameField): string {
  const mimeType = sniffImageType(bytes, voSniffedTypes);
  if (mimeType === undefined) throw invalidRequest(`${field}: the data is not a ${acceptedNames} image`, { param: field });
  if (!voFrameTypes.includes(mimeType)) {
    throw invalidRequest(`${field}: ${mimeType.slice('image/'.length)} images are not accepted as frames; send ${acceptedNames}`, { param: field });
  }
  return mimeType;
}

/** The first bytes of base64 text, enough to sniff its type. */
const headOf = (base64: string): Buffer => Buffer.from(base64.slice(0, Math.ceil(voSniffBytes / 3) * 4), 'base64');

/**
 * Classifies a frame given as text and checks what can be checked before any fetch: the
 * scheme, the base64 alphabet, and the image type of inline base64 by its magic numbers.
 * @throws GatewayError 400 naming `field`.
 */
export function readVoFrameText(value: string, field: VoFrameField): VoFrameSource {
  const trimmed = value.trim();
  const named = scheme.exec(trimmed)?.[1]?.toLowerCase();
  if (named === 'http' || named === 'https') return { field, kind: 'fetch', url: trimmed };
  if (named === 'data') {
    // A percent-encoded data: URI is left to the media fetcher, which decodes both kinds.
    const prefix = base64DataUri.exec(trimmed)?.[0];
    if (prefix !== undefined) assertVoFrameBytes(headOf(trimmed.slice(prefix.length).replace(/\s+/g, '')), field);
    return { field, kind: 'fetch', url: trimmed };
  }
  if (named !== undefined) throw invalidRequest(`${field}: ${named}: addresses are not fetched; send an https URL, a data: URI or base64 image data`, { param: field });
  const compact = trimmed.replace(/\s+/g, '');
  if (!isBase64Text(compact)) {
    throw invalidRequest(`${field}: expected an https URL, a data: URI or base64 image data`, { param: field });
  }
  assertVoFrameBytes(headOf(compact), field);
  return { field, kind: 'fetch', url: `data:application/octet-stream;base64,${compact}` };
}
