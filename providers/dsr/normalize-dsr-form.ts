import { invalidRequest, parseEmbeddedJson, type ImageRequest, type ImageUpload } from '../../core/index.js';

/** The form fields that carry files of reference images. */
const imageFileFields = new Set(['image', 'image[]']);

/** Fields whose value is an object or a list; a form sends them as JSON text. */
const jsonFields = ['contents', 'sequential_image_generation_options', 'optimize_prompt_options'];

/** Fields whose value is true or false; a form sends them as text. */
const booleanFields = ['watermark', 'stream'];

/** A request split into the JSON-shaped fields the schema checks and the uploaded files. */
export interface DsrRequestInput {
  fields: Record<string, unknown>;
  /** Files of a multipart request, in the order they came; empty for JSON. */
  uploads: ImageUpload[];
}

function readBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  return value;
}

function readJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parsed = parseEmbeddedJson(value);
  // Text that is not JSON (or JSON too deep to translate safely) is left as text, so the
  // schema's message for the field says what shape it wants.
  return parsed.kind === 'json' ? parsed.value : value;
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
  const normalized: Record<string, unknown> = { ...fields };
  for (const name of booleanFields) if (name in normalized) normalized[name] = readBoolean(normalized[name]);
  for (const name of jsonFields) if (name in normalized) normalized[name] = readJson(normalized[name]);
  return { fields: normalized, uploads };
}
