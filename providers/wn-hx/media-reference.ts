
import { fieldError, sniffImageType } from '../../core/kit/index.js';
/** What a media reference holds. */
export type MediaKind = 'image' | 'audio' | 'video';

/** The image types a family takes inline, read from the bytes, and their names for a refusal (`JPEG, PNG or WebP`). */
interface InlineImageTypes {
  types: readonly string[];
  names: string;
}

/** What a family takes for one kind of media (spec part 2, media limits). */
type MediaFormat = {
  /** The extensions accepted, named in the refusal of another. */
  extensions: readonly string[];
  /**
   * Extensions of other media formats: a URL ending in one is refused. Only these are: a
   * URL ending in .php may well serve an image, and signed links often have no extension.
   */
  refusedExtensions: ReadonlySet<string>;
} & ({ kind: 'image'; inline: InlineImageTypes } | { kind: 'audio' | 'video' });

// The media extensions wn knows: a URL ending in one of another kind is refused.
const mediaExtensions = [
  ...['jpg', 'jpeg', 'png', 'bmp', 'webp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico'],
  ...['wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'opus', 'wma', 'amr'],
  ...['mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'wmv', 'm4v', '3gp', 'mpeg', 'mpg'],
];

const othersThan = (accepted: readonly string[]) => new Set(mediaExtensions.filter((extension) => !accepted.includes(extension)));

/** What wn takes for each kind of media (spec part 2, media limits: images JPEG/JPG/PNG/BMP/WEBP, audio WAV/MP3, video MP4/MOV). */
export const wnMediaFormats = {
  image: {
    kind: 'image',
    extensions: ['jpg', 'jpeg', 'png', 'bmp', 'webp'],
    refusedExtensions: othersThan(['jpg', 'jpeg', 'png', 'bmp', 'webp']),
    inline: { types: ['image/jpeg', 'image/png', 'image/bmp', 'image/webp'], names: 'JPEG, PNG, BMP or WebP' },
  },
  audio: { kind: 'audio', extensions: ['wav', 'mp3'], refusedExtensions: othersThan(['wav', 'mp3']) },
  video: { kind: 'video', extensions: ['mp4', 'mov'], refusedExtensions: othersThan(['mp4', 'mov']) },
} as const satisfies Record<MediaKind, MediaFormat>;

/** What hx takes as an image (spec part 2: JPEG/JPG/PNG/WEBP up to 20 MB). */
export const hxImageFormat: MediaFormat = {
  kind: 'image',
  extensions: ['jpg', 'jpeg', 'png', 'webp'],
  refusedExtensions: new Set(['bmp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico', 'wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'm4v']),
  inline: { types: ['image/jpeg', 'image/png', 'image/webp'], names: 'JPEG, PNG or WebP' },
};

/** The largest inline image (spec part 2: wn2.7 and hx images up to 20 MB). */
const maxInlineImageBytes = 20 * 1024 * 1024;

const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Checks a media reference the upstream fetches itself and returns what to send: an http(s)
 * URL as given (an extension of another media format is refused), or for an image a base64
 * `data:` URI whose bytes are a type the family takes (the type written from the bytes,
 * since DashScope takes base64 only as a data URI, upstreams.md §4.2, §4.4). Formats,
 * sizes and durations behind a URL are the upstream's to judge: checking them would mean
 * downloading every file. `httpsOnly` refuses plain http (wn2.5's `audio_url`); `rawBase64`
 * takes base64 without a `data:` prefix (wn2.5's `image`: "URL or Base64").
 */
export function checkMediaReference(value: string, path: string, format: MediaFormat, options: { httpsOnly?: boolean; rawBase64?: boolean } = {}): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'data') {
    if (format.kind !== 'image') throw fieldError(path, `expected an http(s) URL of the ${format.kind}; only images may be sent inline`);
    const match = /^data:[^,;]*((?:;[^,;]*)*),(.*)$/is.exec(value);
    if (match === null || !/;base64$/i.test(match[1] ?? '')) throw fieldError(path, 'expected a base64 data URI such as data:image/png;base64,...');
    return inlineImage(match[2]!.replace(/\s+/g, ''), path, format.inline);
  }
  if (scheme === undefined) {
    if (format.kind === 'image' && options.rawBase64 === true && base64Text.test(value.replace(/\s+/g, ''))) return inlineImage(value.replace(/\s+/g, ''), path, format.inline);
    throw fieldError(path, format.kind === 'image' ? 'expected an http(s) URL or a base64 data URI of an image' : `expected an http(s) URL of the ${format.kind}`);
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
  if (extension !== undefined && format.refusedExtensions.has(extension)) {
    throw fieldError(path, `a .${extension} file is not accepted here; expected ${format.extensions.map((accepted) => `.${accepted}`).join(', ')}`);
  }
  return value;
}

function inlineImage(payload: string, path: string, accepted: InlineImageTypes): string {
  if (!base64Text.test(payload)) throw fieldError(path, 'the base64 data is not valid base64');
  return imageDataUri(Buffer.from(payload, 'base64'), path, accepted, 'data', payload);
}

/**
 * An image's bytes as a data URI, its type read from them (`what` names them in a refusal).
 * An uploaded file is one (wn2.5's multipart `image`).
 */
export function imageDataUri(bytes: Buffer, path: string, accepted: InlineImageTypes, what: 'data' | 'file', base64 = bytes.toString('base64')): string {
  if (bytes.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
  const type = sniffImageType(bytes, accepted.types);
  if (type === undefined) throw fieldError(path, `the ${what} is not a ${accepted.names} image`);
  return `data:${type};base64,${base64}`;
}
