import type { RecordedRequest } from '../../../core/testing/index.js';
import { invalidTypeBody, invalidValueBody, missingParameterBody, openAiErrorBody } from './openai-error-body.js';
import { headerValue, isObject } from './openai-wire.js';

/** The two image endpoints of upstreams.md §2.7. */
export type ImagesEndpoint = 'generations' | 'edits';

/** What the fake needs to know of an accepted image request to answer it. */
export interface ImagesRequestFacts {
  model: string;
  prompt: string;
  n: number;
  /** The size asked for; `auto` as asked. */
  size: string;
  quality: string;
  background: string;
  outputFormat: string;
  /** Input images (edits). */
  inputImages: number;
  inputFidelity: 'high' | 'low';
}

/** Either the facts of an accepted request or the 400 body refusing it. */
export type ImagesRequestReading = { facts: ImagesRequestFacts } | { refusal: unknown };

const sharedParameters = ['prompt', 'model', 'n', 'size', 'quality', 'background', 'output_format', 'output_compression', 'stream', 'partial_images', 'user'];
const parameters: Record<ImagesEndpoint, Set<string>> = {
  generations: new Set([...sharedParameters, 'moderation']),
  edits: new Set([...sharedParameters, 'input_fidelity', 'image', 'image[]', 'images', 'mask']),
};
const presetSizes = ['1024x1024', '1024x1536', '1536x1024', 'auto'];
const imageTypes = ['image/png', 'image/jpeg', 'image/webp'];
/** gpt-image takes up to 16 input images (upstreams.md §2.7). */
const mostInputImages = 16;

const listed = (values: readonly string[]) => `${values.slice(0, -1).map((value) => `'${value}'`).join(', ')}, and '${values.at(-1)}'`;

/** OpenAI's answer to any parameter it does not know, `response_format` for gpt-image included (vercel fixture gpt-image-response-format-error.json). */
export const unknownParameterBody = (name: string) => openAiErrorBody(400, `Unknown parameter: '${name}'.`, name, 'unknown_parameter');

function enumRefusal(body: Record<string, unknown>, name: string, values: readonly string[]): unknown {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return invalidTypeBody(name, 'a string', value);
  return values.includes(value) ? undefined : invalidValueBody(name, `Invalid value: '${value}'. Supported values are: ${listed(values)}.`);
}

function integerRefusal(body: Record<string, unknown>, name: string, minimum: number, maximum: number): unknown {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return invalidTypeBody(name, 'an integer', value);
  if (value < minimum) {
    return openAiErrorBody(400, `Invalid '${name}': integer below minimum value. Expected a value >= ${minimum}, but got ${value} instead.`, name, 'integer_below_min_value');
  }
  if (value > maximum) {
    return openAiErrorBody(400, `Invalid '${name}': integer above maximum value. Expected a value <= ${maximum}, but got ${value} instead.`, name, 'integer_above_max_value');
  }
  return undefined;
}

/**
 * gpt-image-1, -1-mini and -1.5 take the preset sizes only; gpt-image-2 (and any other model
 * the fake is asked for) takes any `WxH` with both sides multiples of 16, each at most 3840,
 * the long side at most 3 times the short one, and 655,360 to 8,294,400 pixels.
 */
function sizeRefusal(model: string, size: unknown): unknown {
  if (size === undefined) return undefined;
  if (typeof size !== 'string') return invalidTypeBody('size', 'a string', size);
  if (presetSizes.includes(size)) return undefined;
  const presetsOnly = invalidValueBody('size', `Invalid value: '${size}'. Supported values are: ${listed(presetSizes)}.`);
  if (model.startsWith('gpt-image-1')) return presetsOnly;
  const match = /^([0-9]+)x([0-9]+)$/.exec(size);
  if (match === null) return presetsOnly;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const fits =
    width % 16 === 0 &&
    height % 16 === 0 &&
    Math.max(width, height) <= 3840 &&
    Math.max(width, height) <= 3 * Math.min(width, height) &&
    width * height >= 655_360 &&
    width * height <= 8_294_400;
  if (fits) return undefined;
  const rules = 'both edges must be multiples of 16, the longest edge at most 3840 pixels, the aspect ratio at most 3:1, and the total between 655360 and 8294400 pixels';
  return invalidValueBody('size', `Invalid value: '${size}'. For ${model}, ${rules}.`);
}

/** The checks every gpt-image request goes through, in the order the fake reports them. */
function fieldsRefusal(body: Record<string, unknown>, endpoint: ImagesEndpoint, model: string): unknown {
  for (const name of Object.keys(body)) if (!parameters[endpoint].has(name)) return unknownParameterBody(name);
  if (body.prompt === undefined || body.prompt === '') return missingParameterBody('prompt');
  if (typeof body.prompt !== 'string') return invalidTypeBody('prompt', 'a string', body.prompt);
  if (typeof body.model !== 'string' && body.model !== undefined) return invalidTypeBody('model', 'a string', body.model);
  if (body.stream === true) return openAiErrorBody(400, 'This fake upstream does not stream images; leave stream out.', 'stream', 'unsupported_value');
  return (
    integerRefusal(body, 'n', 1, 10) ??
    sizeRefusal(model, body.size) ??
    enumRefusal(body, 'quality', ['low', 'medium', 'high', 'auto']) ??
    enumRefusal(body, 'background', ['transparent', 'opaque', 'auto']) ??
    enumRefusal(body, 'output_format', ['png', 'jpeg', 'webp']) ??
    integerRefusal(body, 'output_compression', 0, 100) ??
    integerRefusal(body, 'partial_images', 0, 3) ??
    enumRefusal(body, 'moderation', ['low', 'auto']) ??
    enumRefusal(body, 'input_fidelity', ['high', 'low'])
  );
}

/** Reads a multipart form from the recorded bytes, as the platform parses one. */
export function recordedForm(request: RecordedRequest): Promise<FormData> {
  const contentType = headerValue(request.headers['content-type']) ?? '';
  return new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: request.raw }).formData();
}

// A form sends numbers and booleans as text; the fake reads them back the way OpenAI does.
const numericFields = new Set(['n', 'output_compression', 'partial_images']);
function formValue(name: string, text: string): unknown {
  if (numericFields.has(name) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (name === 'stream' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The fields of a multipart edit and the number of images in it, or the refusal of a bad file. */
async function readForm(request: RecordedRequest): Promise<{ body: Record<string, unknown>; images: number } | { refusal: unknown }> {
  let form: FormData;
  try {
    form = await recordedForm(request);
  } catch {
    return { refusal: openAiErrorBody(400, 'Could not parse multipart form.') };
  }
  const body: Record<string, unknown> = {};
  let images = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      body[name] = formValue(name, value);
      continue;
    }
    const param = name === 'mask' ? 'mask' : 'image';
    if (name === 'image' || name === 'image[]') images += 1;
    else if (name !== 'mask') return { refusal: unknownParameterBody(name) };
    if (!imageTypes.includes(value.type)) {
      const message = `Invalid file '${param}': unsupported mimetype ('${value.type || 'application/octet-stream'}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`;
      return { refusal: openAiErrorBody(400, message, param) };
    }
  }
  return { body, images };
}

/** The number of `images` of a JSON edit (`[{image_url}]` or `[{file_id}]`), or the refusal of a bad entry. */
function jsonImages(body: Record<string, unknown>): number | { refusal: unknown } {
  const images = body.images;
  if (images === undefined) return 0;
  if (!Array.isArray(images)) return { refusal: invalidTypeBody('images', 'an array', images) };
  for (const [index, entry] of images.entries()) {
    const url = isObject(entry) ? entry.image_url : undefined;
    const valid = isObject(entry) && (typeof entry.file_id === 'string' || (typeof url === 'string' && /^(data:image\/|https?:\/\/)/.test(url)));
    if (!valid) return { refusal: openAiErrorBody(400, `Invalid 'images[${index}]': expected an object with an image_url (a URL or a data URL) or a file_id.`, `images[${index}]`, 'invalid_value') };
  }
  return images.length;
}

/**
 * Reads and checks an image request as gpt-image does (upstreams.md §2.7): generations take
 * JSON; edits take multipart (`image` or repeated `image[]` files, optional `mask`) or JSON
 * with `images: [{image_url}]`. Unknown parameters, `response_format` among them, are
 * `unknown_parameter`; values are checked with OpenAI's error codes. The fake speaks
 * gpt-image only: a request without `model` is answered as `gpt-image-1`.
 */
export async function readImagesRequest(request: RecordedRequest, endpoint: ImagesEndpoint): Promise<ImagesRequestReading> {
  const contentType = (headerValue(request.headers['content-type']) ?? '').toLowerCase();
  let body: Record<string, unknown>;
  let images: number;
  if (endpoint === 'edits' && contentType.startsWith('multipart/form-data')) {
    const form = await readForm(request);
    if ('refusal' in form) return form;
    ({ body, images } = form);
  } else {
    if (!isObject(request.json)) return { refusal: openAiErrorBody(400, 'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)') };
    body = request.json;
    const counted = endpoint === 'edits' ? jsonImages(body) : 0;
    if (typeof counted !== 'number') return counted;
    images = counted;
  }
  const model = typeof body.model === 'string' ? body.model : 'gpt-image-1';
  const refusal = fieldsRefusal(body, endpoint, model);
  if (refusal !== undefined) return { refusal };
  if (endpoint === 'edits' && images === 0) return { refusal: missingParameterBody('image') };
  if (images > mostInputImages) {
    return { refusal: openAiErrorBody(400, `Invalid 'image': too many images. Expected at most ${mostInputImages}, but got ${images}.`, 'image', 'invalid_value') };
  }
  const background = body.background === 'transparent' ? 'transparent' : 'opaque';
  return {
    facts: {
      model,
      prompt: body.prompt as string,
      n: (body.n as number | undefined) ?? 1,
      size: (body.size as string | undefined) ?? 'auto',
      quality: (body.quality as string | undefined) ?? 'auto',
      background,
      outputFormat: (body.output_format as string | undefined) ?? 'png',
      inputImages: images,
      inputFidelity: body.input_fidelity === 'high' ? 'high' : 'low',
    },
  };
}
