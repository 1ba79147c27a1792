import { invalidRequest, isBase64Text, sniffBase64ImageType, type VideoSubmitRequest } from '../../core/index.js';
import { sniffSrImageType, srImageMimeTypes } from './sr-image-types.js';

/** A file of a multipart submission. */
export type SrUpload = NonNullable<VideoSubmitRequest['uploads']>[number];

/**
 * Where the reference image comes from, checked without I/O: an uploaded file (its type read
 * from its bytes), a URL to fetch through the media guard, or inline data as a `data:` URI
 * whose first bytes are already known to be an image.
 */
export type SrReferenceSource = { kind: 'upload'; upload: SrUpload; mimeType: string } | { kind: 'url'; url: string } | { kind: 'inline'; dataUri: string };

const param = 'input_reference';
const accepted = 'a png, jpeg or webp image';
const whitespace = /[\t\n\f\r ]+/g;

function refuse(problem: string): never {
  throw invalidRequest(`${param}: ${problem}`, { param });
}

const anyForm = `expected an http(s) URL, a data: URI or base64 of ${accepted}`;

/** Inline base64 as a `data:` URI of the type its first bytes show; `what` names it in refusals, `invalid` is the refusal of bad base64. */
function inlineBase64(base64: string, what: string, invalid: string): string {
  const compact = base64.replace(whitespace, '');
  if (!isBase64Text(compact)) refuse(invalid);
  const mimeType = sniffBase64ImageType(compact, srImageMimeTypes, 24);
  if (mimeType === undefined) refuse(`the ${what} does not hold ${accepted}; send one of those`);
  return `data:${mimeType};base64,${compact}`;
}

function dataUriSource(uri: string): SrReferenceSource {
  const comma = uri.indexOf(',');
  const parameters = comma < 0 ? [] : uri.slice(5, comma).split(';');
  if (comma < 0 || parameters.at(-1)?.trim().toLowerCase() !== 'base64') refuse(`expected a base64 data: URI such as data:image/png;base64,...`);
  return { kind: 'inline', dataUri: inlineBase64(uri.slice(comma + 1), 'data: URI', `the data: URI does not hold valid base64; send base64 of ${accepted}`) };
}

/**
 * Reads a text `input_reference` (spec part 2: "URL or Base64 image"): an http(s) URL, a
 * `data:` URI with base64 data, or bare base64. Inline data is checked now (the alphabet, and
 * the first bytes must be png, jpeg or webp), so a bad one is refused before quota is
 * reserved; a URL is only fetched when the task is submitted.
 */
export function readSrReferenceText(text: string): SrReferenceSource {
  const value = text.trim();
  if (/^data:/i.test(value)) return dataUriSource(value);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) refuse(anyForm);
    return { kind: 'url', url: value };
  }
  return { kind: 'inline', dataUri: inlineBase64(value, 'base64 data', anyForm) };
}

/** Reads an uploaded `input_reference` file: its bytes must be png, jpeg or webp, whatever type it was declared as. */
export function readSrReferenceUpload(upload: SrUpload): SrReferenceSource {
  const mimeType = sniffSrImageType(upload.data);
  if (mimeType === undefined) refuse(`the file "${upload.filename}" is not ${accepted}; send one of those`);
  return { kind: 'upload', upload, mimeType };
}
