import { invalidRequest, type ProviderHost, type VideoSubmitRequest } from '../../core/index.js';
import { imageUploadFile, isBase64Text, mediaErrorAboutField, sniffBase64ImageType, type UploadFile } from '../../core/kit/index.js';
import { openAiFetchedImageTypes, openAiImageTypes, sniffOpenAiImageType } from '../shared/openai-compatible/openai-image-inputs.js';

/** A file of a multipart submission. */
export type SrUpload = NonNullable<VideoSubmitRequest['uploads']>[number];

/** Where the reference image comes from, checked without I/O: a file (typed by its bytes), a URL to fetch, or an image's inline data as a `data:` URI. */
export type SrReferenceSource = { kind: 'upload'; upload: SrUpload; mimeType: string } | { kind: 'url'; url: string } | { kind: 'inline'; dataUri: string };

const param = 'input_reference';
const accepted = 'a png, jpeg or webp image';
const anyForm = `expected an http(s) URL, a data: URI or base64 of ${accepted}`;

function refuse(problem: string): never {
  throw invalidRequest(`${param}: ${problem}`, { param });
}

/** Inline base64 as a `data:` URI of the type its first bytes show; `what` names it in refusals, `invalid` is the refusal of bad base64. */
function inlineBase64(base64: string, what: string, invalid: string): string {
  const compact = base64.replace(/[\t\n\f\r ]+/g, '');
  if (!isBase64Text(compact)) refuse(invalid);
  const mimeType = sniffBase64ImageType(compact, openAiImageTypes, 24);
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
 * Reads a text `input_reference` (spec part 2: "URL or Base64 image"): an http(s) URL, fetched
 * only at submission, or a base64 `data:` URI or bare base64, checked now (the alphabet, and
 * png, jpeg or webp by the first bytes), so a bad one is refused before quota is reserved.
 */
export function readSrReferenceText(text: string): SrReferenceSource {
  const value = text.trim();
  if (/^data:/i.test(value)) return dataUriSource(value);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { kind: 'inline', dataUri: inlineBase64(value, 'base64 data', anyForm) };
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') refuse(anyForm);
  return { kind: 'url', url: value };
}

/** Reads an uploaded `input_reference` file: its bytes must be png, jpeg or webp, whatever type it was declared as. */
export function readSrReferenceUpload(upload: SrUpload): SrReferenceSource {
  const mimeType = sniffOpenAiImageType(upload.data);
  if (mimeType === undefined) refuse(`the file "${upload.filename}" is not ${accepted}; send one of those`);
  return { kind: 'upload', upload, mimeType };
}

/**
 * The bytes of the reference image: an uploaded file as it came, or a URL or inline data
 * through the media guard (`host.media.fetch`), sent as the png, jpeg or webp its bytes show.
 * A refusal is the guard's 400 (its code kept) about `input_reference`.
 */
export async function resolveSrReference(host: ProviderHost, source: SrReferenceSource, signal: AbortSignal): Promise<UploadFile> {
  if (source.kind === 'upload') return imageUploadFile(source.upload.data, source.mimeType, param, source.upload.filename);
  let data: Buffer;
  try {
    data = (await host.media.fetch(source.kind === 'url' ? source.url : source.dataUri, { allowedMimeTypes: openAiFetchedImageTypes, signal })).data;
  } catch (error) {
    throw mediaErrorAboutField(error, param);
  }
  const mimeType = sniffOpenAiImageType(data);
  if (mimeType === undefined) refuse('the image is not a png, jpeg or webp image; send one of those');
  return imageUploadFile(data, mimeType, param);
}
