import { z } from 'zod';

/** A file of a multipart image request (`image[]`, `image`, `mask`…). */
export interface ImageUpload {
  /** The form field it came in, e.g. `image[]`. */
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

// Four families share the image routes with different payloads (spec part 2), so core checks
// only what every family has; each provider validates its own fields strictly and says which
// one is wrong. Unknown fields therefore pass through to the provider.

/** `POST /v1/images/generations` and `/v1/images/edits`, the standard format of `images.generate` and `images.edit`. */
export const imageRequestSchema = z.looseObject({
  model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  response_format: z.enum(['b64_json', 'url'], { error: 'expected b64_json or url' }).optional(),
  n: z.number({ error: 'expected a whole number of images' }).int({ error: 'expected a whole number of images' }).min(1, { error: 'expected at least 1' }).optional(),
  contents: z.array(z.unknown(), { error: 'expected an array of {role, parts}' }).optional(),
});

/**
 * A validated image request. `uploads` is set, possibly empty, exactly when the client sent
 * multipart/form-data; its other fields are then the form's text fields.
 */
export type ImageRequest = z.output<typeof imageRequestSchema> & { uploads?: ImageUpload[] };
