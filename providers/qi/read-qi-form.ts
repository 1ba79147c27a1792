import { fieldError, readFormFields, sniffImageType, type ImageUpload } from '../../core/index.js';
import type { QiImageJob } from './qi-image-job.js';
import { readQiFlatBody } from './read-qi-flat-body.js';
import { qiImageMimeTypes } from './qi-image-types.js';

const imageFields = new Set(['image', 'image[]']);

/**
 * Reads a multipart body (how OpenAI clients send `/v1/images/edits`): the flat fields as
 * form fields, the input images as files under `image` or `image[]`, in the order sent, each
 * made a data: URI typed from its magic bytes.
 */
export function readQiForm(fields: Record<string, unknown>, uploads: readonly ImageUpload[]): QiImageJob {
  if (fields.image !== undefined) throw fieldError(['image'], 'in a multipart body send images as files (image or image[]); URLs need a JSON body');
  // A form sends every field as text; `true` and `false` are the flags' values.
  const job = readQiFlatBody(readFormFields(fields, { booleans: ['prompt_extend', 'watermark'] }));
  const images = uploads.map((upload, index) => {
    if (!imageFields.has(upload.field)) throw fieldError([upload.field], 'unknown file field; send the images as image or image[]');
    const mimeType = sniffImageType(upload.data, qiImageMimeTypes);
    if (mimeType === undefined) throw fieldError(['image', index], `the file "${upload.filename}" is not a PNG, JPEG or WebP image`);
    return { value: `data:${mimeType};base64,${upload.data.toString('base64')}`, path: ['image', index] };
  });
  return { ...job, images };
}
