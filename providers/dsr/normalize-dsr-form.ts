import { invalidRequest, readFormFields, type ImageRequest, type ImageUpload } from '../../core/index.js';

/** The form fields that carry files of reference images. */
const imageFileFields = new Set(['image', 'image[]']);

/** Fields a form sends as text: objects and lists as JSON text, true or false as words. */
const formFieldKinds = { json: ['contents', 'sequential_image_generation_options', 'optimize_prompt_options'], booleans: ['watermark', 'stream'] };

/** A request split into the JSON-shaped fields the schema checks and the uploaded files. */
export interface DsrRequestInput {
  fields: Record<string, unknown>;
  /** Files of a multipart request, in the order they came; empty for JSON. */
  uploads: ImageUpload[];
}

/**
 * The request as the schema reads it. A JSON body is taken as it is. A multipart body (the
 * OpenAI SDK's `images.edit` sends one) has only text fields, so `watermark` and `stream`
 * are read as booleans and `contents`, `sequential_image_generation_options` and
 * `optimize_prompt_options` as JSON text; its files must come as `image` or `image[]`.
 */
export function normalizeDsrForm(request: ImageRequest): DsrRequestInput {
  const { uploads, ...fields } = request;
  if (uploads === undefined) return { fields, uploads: [] };
  for (const upload of uploads) {
    if (!imageFileFields.has(upload.field)) {
      throw invalidRequest(`${upload.field}: Seedream-style models take files only as reference images, in the image or image[] field`, { param: upload.field });
    }
  }
  return { fields: readFormFields(fields, formFieldKinds), uploads };
}
