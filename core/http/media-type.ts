import { ascii, startsWith } from '../media/byte-signatures.js';
import { sniffImageType } from '../media/sniff-image-type.js';
import { unsupportedMediaType } from './media-errors.js';
import { ownEntry } from '../validation/value-shapes.js';

const typesByExtension: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
};

// Generic types say nothing about the content (object stores often send them for everything).
const uninformativeTypes = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/** The MIME type of a `Content-Type` value, lower-cased and without parameters; undefined when it says nothing. */
export function mimeTypeFromContentType(contentType: string | undefined): string | undefined {
  const mimeType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (mimeType === undefined || !mimeType.includes('/') || uninformativeTypes.has(mimeType)) return undefined;
  return mimeType;
}

/** The MIME type a URL path's file extension suggests, if it is a known one. */
export function mimeTypeFromPath(pathname: string): string | undefined {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : ownEntry(typesByExtension, name.slice(dot + 1).toLowerCase());
}

// The image types a fetched body or a data: URI is known by; others keep their declared type.
const commonImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The MIME type the first bytes reveal, for a few common media formats. */
export function sniffMimeType(bytes: Uint8Array): string | undefined {
  const image = sniffImageType(bytes, commonImageTypes);
  if (image !== undefined) return image;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, ascii('ID3'))) return 'audio/mpeg';
  // An MPEG audio frame header: 11 sync bits, then layer III.
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe6) === 0xe2) return 'audio/mpeg';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'video/mp4';
  return undefined;
}

/**
 * Throws 400 `unsupported_media_type` unless `mimeType` is accepted. Entries are exact
 * types or `type/*`; no list means anything is accepted.
 */
export function assertAcceptedMimeType(mimeType: string, accepted: readonly string[] | undefined): void {
  if (accepted === undefined) return;
  const family = `${mimeType.slice(0, mimeType.indexOf('/'))}/*`;
  if (!accepted.includes(mimeType) && !accepted.includes(family)) throw unsupportedMediaType(mimeType, accepted);
}
