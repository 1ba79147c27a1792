import { z } from 'zod';
import { booleanField, seedField, wholeNumberField } from '../../core/index.js';

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
