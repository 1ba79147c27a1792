import { dashScopeErrorBody } from './dashscope-error-body.js';
import { headerValue, isObject } from './dashscope-wire.js';
import type { RecordedRequest } from '../../../core/testing/index.js';

/** A valid request of the sync image path, as the fake reads it. */
export interface ImageGenerationRequest {
  model: string;
  /** An edit model (`qwen-image-edit*`): 1 to 3 input images, up to 6 results. */
  edit: boolean;
  prompt: string;
  /** The input images as sent, in order. */
  images: string[];
  n: number;
  size: string;
}

/** Either the request read, or the 400 DashScope answers for it. */
export type ImageGenerationCheck = { request: ImageGenerationRequest } | { error: ReturnType<typeof dashScopeErrorBody>; status: number };

const invalid = (message: string, code = 'InvalidParameter'): ImageGenerationCheck => ({ status: 400, error: dashScopeErrorBody(400, message, code) });

/** Default sizes: 16:9 for text-to-image (upstreams.md §4.3); edits keep a square. */
const defaultSize = (edit: boolean) => (edit ? '1024*1024' : '1664*928');
const maxSeed = 2_147_483_647;

/**
 * Checks a body the way the sync image path does (upstreams.md §4.3): a model, one user
 * message whose content holds one text and, for edit models only, 1 to 3 images (an http(s)
 * URL or a base64 `data:image/...` URI), and parameters whose `n` is 1 for text-to-image
 * models ("num_images_per_prompt must be 1", fixture) and 1 to 6 for edit models, `size` as
 * `width*height`. The `X-DashScope-Async` header is refused on this synchronous path.
 */
export function checkImageGenerationRequest(recorded: RecordedRequest): ImageGenerationCheck {
  if (headerValue(recorded.headers['x-dashscope-async']) !== undefined) return invalid('current user api does not support asynchronous calls');
  const body = recorded.json;
  if (!isObject(body)) return invalid('The request body is not valid JSON.');
  if (typeof body.model !== 'string' || body.model === '') return invalid('Required parameter "model" missing from request.', 'BadRequest.EmptyModel');
  if (!isObject(body.input)) return invalid('Required input parameter missing from request.', 'BadRequest.EmptyInput');
  const model = body.model;
  const edit = model.includes('edit');

  const messages = body.input.messages;
  if (!Array.isArray(messages) || messages.length !== 1) return invalid('input.messages must hold exactly one message.');
  const message = messages[0];
  if (!isObject(message) || message.role !== 'user' || !Array.isArray(message.content)) return invalid('input.messages[0] must be a user message with a content array.');
  const texts: string[] = [];
  const images: string[] = [];
  for (const item of message.content) {
    if (isObject(item) && typeof item.text === 'string') texts.push(item.text);
    else if (isObject(item) && typeof item.image === 'string') images.push(item.image);
    else return invalid('Each content item must be {"text": ...} or {"image": ...}.');
  }
  if (texts.length !== 1 || texts[0]!.trim() === '') return invalid('The content must hold exactly one non-empty text.');
  if (!edit && images.length > 0) return invalid(`Model ${model} does not accept input images.`);
  if (edit && (images.length < 1 || images.length > 3)) return invalid('The number of input images must be between 1 and 3.');
  const unreadable = images.find((image) => !/^https?:\/\//i.test(image) && !/^data:image\/[a-z0-9.+-]+;base64,/i.test(image));
  if (unreadable !== undefined) return invalid('The image must be an http(s) URL or a base64 data URI (data:image/<type>;base64,...).', 'InvalidURL');

  const parameters = body.parameters ?? {};
  if (!isObject(parameters)) return invalid('parameters must be an object.');
  const n = parameters.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n)) return invalid('n must be an integer.');
  if (!edit && n !== 1) return invalid('num_images_per_prompt must be 1');
  if (edit && (n < 1 || n > 6)) return invalid('n must be between 1 and 6.');
  const size = parameters.size ?? defaultSize(edit);
  if (typeof size !== 'string' || !/^[1-9][0-9]*\*[1-9][0-9]*$/.test(size)) return invalid('The size is not match the format width*height.');
  for (const flag of ['prompt_extend', 'watermark']) {
    if (parameters[flag] !== undefined && typeof parameters[flag] !== 'boolean') return invalid(`${flag} must be a boolean.`);
  }
  if (parameters.negative_prompt !== undefined && typeof parameters.negative_prompt !== 'string') return invalid('negative_prompt must be a string.');
  const seed = parameters.seed;
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > maxSeed)) return invalid(`seed must be an integer from 0 to ${maxSeed}.`);
  return { request: { model, edit, prompt: texts[0]!, images, n, size } };
}
