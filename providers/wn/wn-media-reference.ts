import { fieldError } from './wn-field-error.js';
import { sniffWnImageType } from './sniff-wn-image-type.js';

/** What a media reference holds. */
export type WnMediaKind = 'image' | 'audio' | 'video';

/** File extensions each kind accepts (spec part 2, media limits: images JPEG/JPG/PNG/BMP/WEBP, audio WAV/MP3, video MP4/MOV). */
const acceptedExtensions: Record<WnMediaKind, readonly string[]> = {
  image: ['jpg', 'jpeg', 'png', 'bmp', 'webp'],
  audio: ['wav', 'mp3'],
  video: ['mp4', 'mov'],
};

// Only an extension that names another media format is refused: a URL ending in .php or
// .aspx may well serve an image, and signed links often have no extension at all.
const mediaExtensions = new Set([
  ...['jpg', 'jpeg', 'png', 'bmp', 'webp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico'],
  ...['wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'opus', 'wma', 'amr'],
  ...['mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'wmv', 'm4v', '3gp', 'mpeg', 'mpg'],
]);

/** The largest inline image (spec part 2: wn2.7 images up to 20 MB). */
export const maxInlineImageBytes = 20 * 1024 * 1024;

const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;

/** Options of {@link checkWnMediaReference}. */
export interface WnMediaReferenceOptions {
  /** Refuse plain http (wn2.5's `audio_url` is an https URL). */
  httpsOnly?: boolean;
  /** Take base64 without a `data:` prefix (wn2.5's `image`: "URL or Base64"). */
  rawBase64?: boolean;
}

/**
 * Checks a media reference the upstream fetches itself and returns what to send: an http(s)
 * URL as given (a known media extension of another format is refused), or for an image a
 * base64 `data:` URI whose bytes are a JPEG, PNG, BMP or WebP (the type written from the
 * bytes, since DashScope takes base64 only as a data URI, upstreams.md §4.2). Formats,
 * sizes and durations behind a URL are the upstream's to judge: checking them would mean
 * downloading every file.
 */
export function checkWnMediaReference(value: string, path: string, kind: WnMediaKind, options: WnMediaReferenceOptions = {}): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'data') {
    if (kind !== 'image') throw fieldError(path, `expected an http(s) URL of the ${kind}; only images may be sent inline`);
    const match = /^data:[^,;]*((?:;[^,;]*)*),(.*)$/is.exec(value);
    if (match === null || !/;base64$/i.test(match[1] ?? '')) throw fieldError(path, 'expected a base64 data URI such as data:image/png;base64,...');
    return inlineImage(match[2]!.replace(/\s+/g, ''), path);
  }
  if (scheme === undefined) {
    if (kind === 'image' && options.rawBase64 === true && base64Text.test(value.replace(/\s+/g, ''))) return inlineImage(value.replace(/\s+/g, ''), path);
    throw fieldError(path, kind === 'image' ? 'expected an http(s) URL or a base64 data URI of an image' : `expected an http(s) URL of the ${kind}`);
  }
  const allowed = options.httpsOnly === true ? ['https'] : ['http', 'https'];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fieldError(path, 'expected a valid URL');
  }
  if (!allowed.includes(scheme) || url.hostname === '') {
    throw fieldError(path, `expected a public ${options.httpsOnly === true ? 'https' : 'http(s)'} URL the upstream can fetch; ${scheme}: URLs are not accepted`);
  }
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(url.pathname)?.[1]?.toLowerCase();
  if (extension !== undefined && mediaExtensions.has(extension) && !acceptedExtensions[kind].includes(extension)) {
    throw fieldError(path, `a .${extension} file is not accepted here; expected ${acceptedExtensions[kind].map((accepted) => `.${accepted}`).join(', ')}`);
  }
  return value;
}

function inlineImage(payload: string, path: string): string {
  if (!base64Text.test(payload)) throw fieldError(path, 'the base64 data is not valid base64');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
  const type = sniffWnImageType(bytes);
  if (type === undefined) throw fieldError(path, 'the data is not a JPEG, PNG, BMP or WebP image');
  return `data:${type};base64,${payload}`;
}

/** An uploaded image file as a data URI, its type read from its bytes. */
export function uploadedWnImage(data: Buffer, path: string): string {
  if (data.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
  const type = sniffWnImageType(data);
  if (type === undefined) throw fieldError(path, 'the file is not a JPEG, PNG, BMP or WebP image');
  return `data:${type};base64,${data.toString('base64')}`;
}
