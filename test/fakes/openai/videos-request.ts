import type { RecordedRequest } from '../../../core/testing/index.js';
import { invalidTypeBody, invalidValueBody, missingParameterBody, openAiErrorBody } from './openai-error-body.js';
import { headerValue, isObject } from './openai-wire.js';

/** What the fake keeps of an accepted `POST /v1/videos`. */
export interface VideoCreateFacts {
  model: string;
  prompt: string;
  /** As the upstream's enum spells it: `"4"`, `"8"` or `"12"`. */
  seconds: string;
  size: string;
  /** How the reference image came: a multipart file (its type and length), or the JSON `image_url` / `file_id`. */
  inputReference?: { kind: 'file'; mimeType: string; bytes: number; filename: string } | { kind: 'image_url'; url: string } | { kind: 'file_id'; fileId: string };
}

/** Either what was read or the 400 body refusing it. */
export type VideoReading<Facts> = { facts: Facts } | { refusal: unknown };

// upstreams.md §2.9: the models, seconds and sizes of the videos API; the pro sizes are only
// for the pro models (reference-gateway.md §9.4).
const models = ['sora-2', 'sora-2-pro', 'sora-2-2025-10-06', 'sora-2-pro-2025-10-06', 'sora-2-2025-12-08'];
const seconds = ['4', '8', '12'];
const sizes = ['720x1280', '1280x720'];
const proSizes = ['1024x1792', '1792x1024'];
const imageTypes = ['image/jpeg', 'image/png', 'image/webp'];
const createParameters = new Set(['model', 'prompt', 'seconds', 'size', 'input_reference']);
/** The longest prompt (upstreams.md §2.9). */
const mostPromptCharacters = 32_000;

const listed = (values: readonly string[]) => `${values.slice(0, -1).map((value) => `'${value}'`).join(', ')}, and '${values.at(-1)}'`;
const unknownParameter = (name: string) => openAiErrorBody(400, `Unknown parameter: '${name}'.`, name, 'unknown_parameter');

/** Reads a multipart form from the recorded bytes, as the platform parses one. */
export function recordedVideoForm(request: RecordedRequest): Promise<FormData> {
  const contentType = headerValue(request.headers['content-type']) ?? '';
  return new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: request.raw }).formData();
}

const isMultipart = (request: RecordedRequest) => (headerValue(request.headers['content-type']) ?? '').toLowerCase().startsWith('multipart/form-data');

/** The body as name → value: JSON as it is; a form's text fields as strings and its files as `File`s. */
async function readBody(request: RecordedRequest): Promise<{ body: Record<string, unknown> } | { refusal: unknown }> {
  if (isMultipart(request)) {
    let form: FormData;
    try {
      form = await recordedVideoForm(request);
    } catch {
      return { refusal: openAiErrorBody(400, 'Could not parse multipart form.') };
    }
    const body: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) body[name] = value;
    return { body };
  }
  if (!isObject(request.json)) {
    return { refusal: openAiErrorBody(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)") };
  }
  return { body: request.json };
}

function promptRefusal(prompt: unknown): unknown {
  if (prompt === undefined || prompt === '') return missingParameterBody('prompt');
  if (typeof prompt !== 'string') return invalidTypeBody('prompt', 'a string', prompt);
  if (prompt.length > mostPromptCharacters) {
    return openAiErrorBody(400, `Invalid 'prompt': string too long. Expected a string with maximum length ${mostPromptCharacters}, but got a string with length ${prompt.length} instead.`, 'prompt', 'string_above_max_length');
  }
  return undefined;
}

function enumRefusal(name: string, value: unknown, values: readonly string[]): unknown {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return invalidTypeBody(name, `one of ${listed(values)}`, value);
  return values.includes(value) ? undefined : invalidValueBody(name, `Invalid value: '${value}'. Supported values are: ${listed(values)}.`);
}

type ReferenceReading = { reference?: VideoCreateFacts['inputReference'] } | { refusal: unknown };

/** `input_reference`: a form's image file (or the SDK's `input_reference[image_url]`), or JSON's `{image_url}` / `{file_id}`, exactly one key. */
function readReference(body: Record<string, unknown>): ReferenceReading {
  const formUrl = body['input_reference[image_url]'];
  const formFileId = body['input_reference[file_id]'];
  const value = typeof formUrl === 'string' ? { image_url: formUrl } : typeof formFileId === 'string' ? { file_id: formFileId } : body.input_reference;
  if (value === undefined) return {};
  if (value instanceof File) {
    if (!imageTypes.includes(value.type)) {
      const message = `Invalid file 'input_reference': unsupported mimetype ('${value.type || 'application/octet-stream'}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`;
      return { refusal: openAiErrorBody(400, message, 'input_reference', 'invalid_value') };
    }
    return { reference: { kind: 'file', mimeType: value.type, bytes: value.size, filename: value.name } };
  }
  if (!isObject(value)) return { refusal: invalidTypeBody('input_reference', 'an object', value) };
  const keys = Object.keys(value);
  if (keys.length !== 1 || (typeof value.image_url !== 'string' && typeof value.file_id !== 'string')) {
    return { refusal: openAiErrorBody(400, "Invalid 'input_reference': expected exactly one of 'image_url' or 'file_id'.", 'input_reference', 'invalid_value') };
  }
  if (typeof value.file_id === 'string') return { reference: { kind: 'file_id', fileId: value.file_id } };
  const url = value.image_url as string;
  if (!/^(https:\/\/|data:image\/)/i.test(url)) {
    return { refusal: openAiErrorBody(400, "Invalid 'input_reference.image_url': expected an https URL or a base64-encoded data URL.", 'input_reference.image_url', 'invalid_value') };
  }
  return { reference: { kind: 'image_url', url } };
}

/**
 * Reads and checks `POST /v1/videos` (upstreams.md §2.9), JSON or multipart: unknown fields,
 * `prompt` (required, at most 32000 characters), `model` (default `sora-2`), `seconds` (a
 * string, `"4"` default), `size` (`720x1280` default; the 1024x1792 pair for pro models only)
 * and `input_reference`, in that order, each refused with OpenAI's error body.
 */
export async function readVideoCreateRequest(request: RecordedRequest): Promise<VideoReading<VideoCreateFacts>> {
  const read = await readBody(request);
  if ('refusal' in read) return read;
  const { body } = read;
  for (const name of Object.keys(body)) {
    if (!createParameters.has(name) && name !== 'input_reference[image_url]' && name !== 'input_reference[file_id]') return { refusal: unknownParameter(name) };
  }
  const model = body.model ?? 'sora-2';
  const refusal =
    promptRefusal(body.prompt) ??
    enumRefusal('model', model, models) ??
    enumRefusal('seconds', body.seconds, seconds) ??
    enumRefusal('size', body.size, (model as string).includes('-pro') ? [...sizes, ...proSizes] : sizes);
  if (refusal !== undefined) return { refusal };
  const reference = readReference(body);
  if ('refusal' in reference) return reference;
  return {
    facts: {
      model: model as string,
      prompt: body.prompt as string,
      seconds: (body.seconds as string | undefined) ?? '4',
      size: (body.size as string | undefined) ?? '720x1280',
      ...(reference.reference === undefined ? {} : { inputReference: reference.reference }),
    },
  };
}

/** Reads and checks `POST /v1/videos/{id}/remix` (upstreams.md §2.9): JSON or multipart, `prompt` only. */
export async function readVideoRemixRequest(request: RecordedRequest): Promise<VideoReading<{ prompt: string }>> {
  const read = await readBody(request);
  if ('refusal' in read) return read;
  const { body } = read;
  for (const name of Object.keys(body)) if (name !== 'prompt') return { refusal: unknownParameter(name) };
  const refusal = promptRefusal(body.prompt);
  return refusal === undefined ? { facts: { prompt: body.prompt as string } } : { refusal };
}
