import { fieldError } from './hx-field-error.js';

/** The largest inline image (spec part 2: hx images up to 20 MB). */
export const maxInlineImageBytes = 20 * 1024 * 1024;

const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;
// Only an extension that names another media format is refused: a URL ending in .php may
// well serve an image, and signed links often have no extension at all.
const acceptedExtensions = ['jpg', 'jpeg', 'png', 'webp'];
const otherMediaExtensions = new Set(['bmp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico', 'wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'm4v']);

/** The image type of `bytes` from its magic number, when it is one hx takes (spec part 2: JPEG/JPG/PNG/WEBP). */
export function sniffHxImageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * Checks an image reference the upstream fetches itself and returns what to send: an
 * http(s) URL as given (an extension of another media format is refused), or a base64
 * `data:` URI whose bytes are a JPEG, PNG or WebP, its type written from the bytes
 * (upstreams.md §4.4: "http(s) or data:image/..."). Sizes and pixel counts behind a URL are
 * the upstream's to judge.
 */
export function checkHxImageReference(value: string, path: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'data') {
    const match = /^data:[^,;]*((?:;[^,;]*)*),(.*)$/is.exec(value);
    if (match === null || !/;base64$/i.test(match[1] ?? '')) throw fieldError(path, 'expected a base64 data URI such as data:image/png;base64,...');
    const payload = match[2]!.replace(/\s+/g, '');
    if (!base64Text.test(payload)) throw fieldError(path, 'the base64 data is not valid base64');
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
    const type = sniffHxImageType(bytes);
    if (type === undefined) throw fieldError(path, 'the data is not a JPEG, PNG or WebP image');
    return `data:${type};base64,${payload}`;
  }
  if (scheme === undefined) throw fieldError(path, 'expected an http(s) URL or a base64 data URI of an image');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fieldError(path, 'expected a valid URL');
  }
  if ((scheme !== 'http' && scheme !== 'https') || url.hostname === '') throw fieldError(path, `expected a public http(s) URL the upstream can fetch; ${scheme}: URLs are not accepted`);
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(url.pathname)?.[1]?.toLowerCase();
  if (extension !== undefined && otherMediaExtensions.has(extension)) {
    throw fieldError(path, `a .${extension} file is not accepted here; expected ${acceptedExtensions.map((accepted) => `.${accepted}`).join(', ')}`);
  }
  return value;
}
