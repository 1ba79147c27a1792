import { fieldError, sniffImageType } from '../../core/index.js';
import type { InlineImageTypes, MediaFormat } from './media-formats.js';

/** The largest inline image (spec part 2: wn2.7 and hx images up to 20 MB). */
export const maxInlineImageBytes = 20 * 1024 * 1024;

const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;

/** Options of {@link checkMediaReference}. */
export interface MediaReferenceOptions {
  /** Refuse plain http (wn2.5's `audio_url` is an https URL). */
  httpsOnly?: boolean;
  /** Take base64 without a `data:` prefix (wn2.5's `image`: "URL or Base64"). */
  rawBase64?: boolean;
}

/**
 * Checks a media reference the upstream fetches itself and returns what to send: an http(s)
 * URL as given (an extension of another media format is refused), or for an image a base64
 * `data:` URI whose bytes are a type the family takes (the type written from the bytes,
 * since DashScope takes base64 only as a data URI, upstreams.md §4.2, §4.4). Formats,
 * sizes and durations behind a URL are the upstream's to judge: checking them would mean
 * downloading every file.
 */
export function checkMediaReference(value: string, path: string, format: MediaFormat, options: MediaReferenceOptions = {}): string {
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
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
  const type = sniffImageType(bytes);
  if (type === undefined || !accepted.types.includes(type)) throw fieldError(path, `the data is not a ${accepted.names} image`);
  return `data:${type};base64,${payload}`;
}

/** An uploaded image file as a data URI, its type read from its bytes. */
export function uploadedImage(data: Buffer, path: string, accepted: InlineImageTypes): string {
  if (data.length > maxInlineImageBytes) throw fieldError(path, `the image is larger than ${maxInlineImageBytes / (1024 * 1024)} MB`);
  const type = sniffImageType(data);
  if (type === undefined || !accepted.types.includes(type)) throw fieldError(path, `the file is not a ${accepted.names} image`);
  return `data:${type};base64,${data.toString('base64')}`;
}
