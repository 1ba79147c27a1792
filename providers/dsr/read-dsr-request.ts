import { z } from 'zod';
import { invalidRequest, type ImageRequest, type ImageUpload } from '../../core/index.js';
import { booleanField, parseClientFields, readFormFields, seedField, wholeNumberField } from '../../core/kit/index.js';

// Strict: a field this family does not know is a 400 naming it, never silently dropped
// (spec part 2, Seedream-style family table, plus the route's common fields).

const imageSource = z
  .string({ error: 'expected an image as an http(s) URL or a data URI' })
  .min(1, { error: 'expected an image as an http(s) URL or a data URI, not an empty string' });

/** One part of a `contents` item: `{text}` or `{image}`, exactly one of them. */
const dsrContentPartSchema = z
  .strictObject({
    text: z.string({ error: 'expected text' }).optional(),
    image: imageSource.optional(),
  })
  .refine((part) => (part.text === undefined) !== (part.image === undefined), { error: 'expected a part with either text or image' });

const dsrContentSchema = z.strictObject({
  role: z.literal('user', { error: 'expected "user"; Seedream-style models take only user turns' }),
  parts: z.array(dsrContentPartSchema, { error: 'expected an array of {text} and {image} parts' }).min(1, { error: 'expected at least one part' }),
});

/** The client body of `images.generate` and `images.edit` for a Seedream-style model. */
export const dsrRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  response_format: z.enum(['url', 'b64_json'], { error: 'expected url or b64_json' }).optional(),
  n: z
    .literal(1, {
      error: 'Seedream-style models make one image per request; for a group, set sequential_image_generation to auto and sequential_image_generation_options.max_images',
    })
    .optional(),
  stream: z.literal(false, { error: 'the image routes do not stream; leave stream out' }).optional(),
  // One image may come as a string; the rest of the provider sees a list either way.
  image: z
    .preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z.array(imageSource, { error: 'expected an image URL or data URI, or an array of them' }).min(1, { error: 'expected at least one image' }),
    )
    .optional(),
  contents: z.array(dsrContentSchema, { error: 'expected an array of {role, parts}' }).min(1, { error: 'expected at least one item' }).optional(),
  size: z.string({ error: 'expected a size such as 2048x2048' }).optional(),
  watermark: booleanField.optional(),
  seed: seedField.optional(),
  guidance_scale: z
    .number({ error: 'expected a number from 1.0 to 10.0' })
    .min(1, { error: 'expected a number from 1.0 to 10.0' })
    .max(10, { error: 'expected a number from 1.0 to 10.0' })
    .optional(),
  sequential_image_generation: z.enum(['auto', 'disabled'], { error: 'expected auto or disabled' }).optional(),
  sequential_image_generation_options: z
    .strictObject({ max_images: wholeNumberField(1, 4).optional() }, { error: 'expected an object such as {"max_images": 4}' })
    .optional(),
  optimize_prompt_options: z
    .strictObject({ mode: z.enum(['standard', 'fast'], { error: 'expected standard or fast' }).optional() }, { error: 'expected an object such as {"mode": "standard"}' })
    .optional(),
});

/** A Seedream-style request whose fields have the right types and ranges; the model's own rules are checked apart. */
export type DsrRequest = z.output<typeof dsrRequestSchema>;

/**
 * Checks the fields of a Seedream-style request against the family's strict schema. The
 * first problem is a 400 `invalid_request` naming the field and what to send instead.
 */
export function readDsrRequest(fields: Record<string, unknown>): DsrRequest {
  return parseClientFields(dsrRequestSchema, fields, {
    // One `image` string is read as a list of one, so `image[0]` is named as the client wrote it: `image`.
    clientPath: (path) => (path[0] === 'image' && path[1] === 0 && typeof fields.image === 'string' ? ['image', ...path.slice(2)] : path),
    unknownField: (field) => `unknown field "${field}"; Seedream-style models do not take it (check its spelling)`,
  });
}

/**
 * The request split into the JSON-shaped fields the schema checks and the uploaded files, in
 * the order they came (none for JSON). A JSON body is taken as it is. A multipart body (the
 * OpenAI SDK's `images.edit` sends one) has only text fields, so `watermark` and `stream`
 * are read as booleans and `contents`, `sequential_image_generation_options` and
 * `optimize_prompt_options` as JSON text; its files must come as `image` or `image[]`.
 */
export function normalizeDsrForm(request: ImageRequest): { fields: Record<string, unknown>; uploads: ImageUpload[] } {
  const { uploads, ...fields } = request;
  if (uploads === undefined) return { fields, uploads: [] };
  for (const upload of uploads) {
    if (upload.field !== 'image' && upload.field !== 'image[]') {
      throw invalidRequest(`${upload.field}: Seedream-style models take files only as reference images, in the image or image[] field`, { param: upload.field });
    }
  }
  const json = ['contents', 'sequential_image_generation_options', 'optimize_prompt_options'];
  return { fields: readFormFields(fields, { json, booleans: ['watermark', 'stream'] }), uploads };
}

/**
 * A reference image as the client gave it: `source` an http(s) URL or a data URI, `field` the
 * request field it came in (`contents[0].parts[1].image`, `image[2]`, `image[]`), and `label`
 * how a message names it (the field, plus the file name of an upload).
 */
export interface DsrReference {
  source: string;
  field: string;
  label: string;
}

/** The prompt and reference images of a request, wherever the client put them. */
export interface DsrInputs {
  /** Undefined when the client sent no text at all. */
  prompt: string | undefined;
  /** In the order the client gave them, which is the order the upstream numbers them. */
  references: DsrReference[];
}

/**
 * Gathers the prompt and the reference images from the two forms a client may use:
 * `prompt` with `image` (Ark's own fields, plus uploaded files in a multipart body), or
 * `contents` (spec part 2), whose text parts are joined with newlines in order and whose
 * image parts become the references in order. Mixing the two forms is a 400.
 */
export function collectDsrInputs(request: DsrRequest, uploads: readonly ImageUpload[]): DsrInputs {
  const uploaded = uploads.map((upload): DsrReference => ({
    source: `data:${upload.mimeType};base64,${upload.data.toString('base64')}`,
    field: upload.field,
    label: `${upload.field} ("${upload.filename}")`,
  }));
  if (request.contents === undefined) {
    const images = request.image ?? [];
    const given = images.map((source, index): DsrReference => {
      const field = images.length === 1 ? 'image' : `image[${index}]`;
      return { source, field, label: field };
    });
    return { prompt: request.prompt, references: [...given, ...uploaded] };
  }
  if (request.prompt !== undefined || request.image !== undefined || uploaded.length > 0) {
    throw invalidRequest('contents: send either contents, or prompt with image, not both', { param: 'contents' });
  }
  const texts: string[] = [];
  const references: DsrReference[] = [];
  request.contents.forEach((content, contentIndex) =>
    content.parts.forEach((part, partIndex) => {
      if (part.text !== undefined) texts.push(part.text);
      if (part.image !== undefined) {
        const field = `contents[${contentIndex}].parts[${partIndex}].image`;
        references.push({ source: part.image, field, label: field });
      }
    }),
  );
  return { prompt: texts.length === 0 ? undefined : texts.join('\n'), references };
}
