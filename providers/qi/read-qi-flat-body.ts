import { fieldError, parseClientFields } from '../../core/index.js';
import { qiFlatBodySchema, qiFlatKnownFields, qiUnknownField } from './qi-client-schemas.js';
import type { QiImageInput } from './qi-image-reference.js';
import type { QiImageJob } from './qi-image-job.js';

/**
 * Reads the flat OpenAI-style body, a convenience mapped onto the native one: `prompt`,
 * `image` (one string or a list, order kept), and `n`, `negative_prompt`, `prompt_extend`,
 * `seed`, `watermark`, `size` at the top level.
 */
export function readQiFlatBody(request: Record<string, unknown>): QiImageJob {
  const { model: _model, prompt, image, response_format, ...parameters } = parseClientFields(qiFlatBodySchema, request, { unknownField: qiUnknownField(qiFlatKnownFields) });
  if (prompt.trim() === '') throw fieldError(['prompt'], 'must not be empty');
  return {
    prompt,
    images: readFlatImages(image),
    imagesPath: ['image'],
    parameters,
    parametersPath: [],
    responseFormat: response_format ?? 'url',
  };
}

function readFlatImages(image: unknown): QiImageInput[] {
  if (image === undefined) return [];
  if (typeof image === 'string') return [{ value: image, path: ['image'] }];
  if (!Array.isArray(image)) throw fieldError(['image'], 'expected an image (URL, data: URI or base64) or a list of them');
  return image.map((value, index) => {
    if (typeof value !== 'string') throw fieldError(['image', index], 'expected an image URL, a data: URI or base64 image data');
    return { value, path: ['image', index] };
  });
}
