import { fieldError, type ImageRequest } from '../../core/index.js';
import type { QiImageJob } from './qi-image-job.js';
import { readQiFlatBody } from './read-qi-flat-body.js';
import { readQiForm } from './read-qi-form.js';
import { readQiNativeBody } from './read-qi-native-body.js';

/** Input images an edit model takes (spec part 2, Limits). */
export const maxQiInputImages = 3;
/** Images an edit model makes per call (spec part 2, Limits). */
export const maxQiEditImages = 6;

/** Which route the request came to and what its model does. */
export interface QiModelKind {
  operation: 'images.generate' | 'images.edit';
  /** The client's model name, for messages. */
  model: string;
  /** An edit model (one of the channel's `edit_models`); otherwise text-to-image. */
  edit: boolean;
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
