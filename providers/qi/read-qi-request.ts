import type { ImageRequest, ImageUpload } from '../../core/index.js';
import { fieldError, parseClientFields, readFormFields, sniffImageType, type FieldPath } from '../../core/kit/index.js';
import { qiFlatBodySchema, qiFlatKnownFields, qiFlatOnlyFields, qiNativeBodySchema, qiNativeKnownFields, qiUnknownField } from './qi-client-schemas.js';
import type { QiParameters } from './qi-client-schemas.js';
import { qiImageMimeTypes, type QiImageInput } from './qi-image-reference.js';

/** Input images an edit model takes (spec part 2, Limits). */
const maxQiInputImages = 3;
/** Images an edit model makes per call (spec part 2, Limits). */
const maxQiEditImages = 6;

/** A client's image request read into one shape, whichever form it came in (native, flat JSON, multipart). */
export interface QiImageJob {
  /** The prompt or edit instruction. */
  prompt: string;
  /** The input images in the order given. */
  images: QiImageInput[];
  /** Where the images belong, for a message about their number. */
  imagesPath: FieldPath;
  /** The parameters, `size` already as `width*height`. */
  parameters: QiParameters;
  /** Where the parameters were given: `parameters` (native) or the top level (flat). */
  parametersPath: FieldPath;
  /** How the client wants the images; `url` when it did not say. */
  responseFormat: 'url' | 'b64_json';
}

/** Which route the request came to and what its model does. */
export interface QiModelKind {
  operation: 'images.generate' | 'images.edit';
  /** The client's model name, for messages. */
  model: string;
  /** An edit model (one of the channel's `edit_models`); otherwise text-to-image. */
  edit: boolean;
}

const contentPath = ['input', 'messages', 0, 'content'] as const;

/**
 * Reads the native body `{model, input: {messages: [{role: "user", content: [...]}]},
 * parameters, response_format}` (spec part 2, Q-style family): one user message, exactly
 * one `{text}` item and any `{image}` items, whose order is kept.
 */
function readQiNativeBody(request: Record<string, unknown>): QiImageJob {
  for (const field of qiFlatOnlyFields) {
    if (request[field] !== undefined) {
      throw fieldError([field], 'send either input and parameters, or the flat fields (prompt, image, n, size...), not both');
    }
  }
  const body = parseClientFields(qiNativeBodySchema, request, { unknownField: qiUnknownField(qiNativeKnownFields) });
  const content = body.input.messages[0]!.content;
  const textIndexes = content.flatMap((item, index) => (item.text === undefined ? [] : [index]));
  if (textIndexes.length === 0) throw fieldError(contentPath, 'expected the prompt as a {"text": ...} item');
  if (textIndexes.length > 1) throw fieldError([...contentPath, textIndexes[1]!, 'text'], 'expected one text item; put the whole prompt in one');
  const prompt = content[textIndexes[0]!]!.text!;
  if (prompt.trim() === '') throw fieldError([...contentPath, textIndexes[0]!, 'text'], 'must not be empty');
  return {
    prompt,
    images: content.flatMap((item, index) => (item.image === undefined ? [] : [{ value: item.image, path: [...contentPath, index, 'image'] }])),
    imagesPath: contentPath,
    parameters: body.parameters ?? {},
    parametersPath: ['parameters'],
    responseFormat: body.response_format ?? 'url',
  };
}

/**
 * Reads the flat OpenAI-style body, a convenience mapped onto the native one: `prompt`,
 * `image` (one string or a list, order kept), and `n`, `negative_prompt`, `prompt_extend`,
 * `seed`, `watermark`, `size` at the top level.
 */
function readQiFlatBody(request: Record<string, unknown>): QiImageJob {
  const { model: _model, prompt, image, response_format, ...parameters } = parseClientFields(qiFlatBodySchema, request, { unknownField: qiUnknownField(qiFlatKnownFields) });
  if (prompt.trim() === '') throw fieldError(['prompt'], 'must not be empty');
  let images: QiImageInput[] = [];
  if (typeof image === 'string') images = [{ value: image, path: ['image'] }];
  else if (Array.isArray(image)) {
    images = image.map((value, index) => {
      if (typeof value !== 'string') throw fieldError(['image', index], 'expected an image URL, a data: URI or base64 image data');
      return { value, path: ['image', index] };
    });
  } else if (image !== undefined) throw fieldError(['image'], 'expected an image (URL, data: URI or base64) or a list of them');
  return { prompt, images, imagesPath: ['image'], parameters, parametersPath: [], responseFormat: response_format ?? 'url' };
}

const imageFields = new Set(['image', 'image[]']);

/**
 * Reads a multipart body (how OpenAI clients send `/v1/images/edits`): the flat fields as
 * form fields (`true` and `false` text the flags' values), the input images as files under
 * `image` or `image[]`, in the order sent, each made a data: URI typed from its magic bytes.
 */
function readQiForm(fields: Record<string, unknown>, uploads: readonly ImageUpload[]): QiImageJob {
  if (fields.image !== undefined) throw fieldError(['image'], 'in a multipart body send images as files (image or image[]); URLs need a JSON body');
  const job = readQiFlatBody(readFormFields(fields, { booleans: ['prompt_extend', 'watermark'] }));
  const images = uploads.map((upload, index) => {
    if (!imageFields.has(upload.field)) throw fieldError([upload.field], 'unknown file field; send the images as image or image[]');
    const mimeType = sniffImageType(upload.data, qiImageMimeTypes);
    if (mimeType === undefined) throw fieldError(['image', index], `the file "${upload.filename}" is not a PNG, JPEG or WebP image`);
    return { value: `data:${mimeType};base64,${upload.data.toString('base64')}`, path: ['image', index] };
  });
  return { ...job, images };
}

/**
 * Reads and checks a Q-style image request in any of its forms. A text-to-image model takes
 * no input image and makes exactly 1 image per call ("num_images_per_prompt must be 1",
 * upstreams.md §4.3 and fixture dashscope-qwen-image-responses.json) and only on
 * generations; an edit model takes 1 to 3 images and makes 1 to 6, on either route. Every
 * refusal is a 400 naming the field.
 */
export function readQiRequest(request: ImageRequest, kind: QiModelKind): QiImageJob {
  const { model } = kind;
  if (kind.operation === 'images.edit' && !kind.edit) {
    throw fieldError(['model'], `${model} makes images from text only; send it to /v1/images/generations, or use an edit model (such as qi-edit-plus) here`);
  }
  const { uploads, ...fields } = request;
  let job: QiImageJob;
  if (uploads !== undefined) job = readQiForm(fields, uploads);
  else if (fields.input !== undefined || fields.parameters !== undefined) job = readQiNativeBody(fields);
  else job = readQiFlatBody(fields);

  if (!kind.edit && job.images.length > 0) {
    throw fieldError(job.images[0]!.path, `${model} makes images from text only and takes no input image; use an edit model such as qi-edit-plus`);
  }
  if (kind.edit && job.images.length === 0) throw fieldError(job.imagesPath, `${model} edits 1 to ${maxQiInputImages} input images; add at least one`);
  if (job.images.length > maxQiInputImages) throw fieldError(job.images[maxQiInputImages]!.path, `${model} takes at most ${maxQiInputImages} input images`);

  const n = job.parameters.n;
  const nPath = [...job.parametersPath, 'n'];
  if (n !== undefined && kind.edit && n > maxQiEditImages) throw fieldError(nPath, `expected 1 to ${maxQiEditImages} images for ${model}`);
  if (n !== undefined && !kind.edit && n !== 1) throw fieldError(nPath, `${model} makes exactly 1 image per call; call again for more`);
  return job;
}
