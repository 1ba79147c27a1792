import { z } from 'zod';

import { booleanField, seedField } from '../../core/kit/index.js';
// Strict on purpose: a misspelt or unsupported field is a 400 naming it, never silently dropped.

const wholeNumber = (problem: string) => z.number({ error: problem }).int({ error: problem });

/**
 * `width*height` in pixels as DashScope writes it (upstreams.md §4.3); `WIDTHxHEIGHT`, the
 * OpenAI way, is accepted too and rewritten to `width*height`.
 */
export const qiSizeSchema = z
  .string({ error: 'expected width*height in pixels, such as 1328*1328' })
  .regex(/^[1-9][0-9]{0,4}[*xX][1-9][0-9]{0,4}$/, { error: 'expected width*height in pixels, such as 1328*1328' })
  .transform((size) => size.replace(/[xX]/, '*'));

/** The Q-style `parameters` (spec part 2); every field optional, the upstream's defaults apply. */
export const qiParametersSchema = z.strictObject(
  {
    n: wholeNumber('expected a whole number of images').min(1, { error: 'expected at least 1' }).optional(),
    negative_prompt: z.string({ error: 'expected a string' }).optional(),
    prompt_extend: booleanField.optional(),
    // DashScope's seed range (upstreams.md §4.2, §4.4; spec part 2's seed limits).
    seed: seedField.optional(),
    watermark: booleanField.optional(),
    size: qiSizeSchema.optional(),
  },
  { error: 'expected an object of parameters' },
);

export type QiParameters = z.output<typeof qiParametersSchema>;

/** One item of the user message's `content`: exactly one of `text` and `image`. */
const contentItemSchema = z
  .strictObject(
    {
      text: z.string({ error: 'expected the prompt as a string' }).optional(),
      image: z.string({ error: 'expected an image URL, a data: URI or base64 image data' }).optional(),
    },
    { error: 'expected {"text": ...} or {"image": ...}' },
  )
  .superRefine((item, context) => {
    if (item.text !== undefined && item.image !== undefined) {
      context.addIssue({ code: 'custom', message: 'expected either text or image in one item, not both' });
    } else if (item.text === undefined && item.image === undefined) {
      context.addIssue({ code: 'custom', message: 'expected {"text": ...} or {"image": ...}' });
    }
  });

const messageSchema = z.strictObject(
  {
    role: z.literal('user', { error: 'expected "user"' }),
    content: z
      .array(contentItemSchema, { error: 'expected an array of {"text": ...} and {"image": ...} items' })
      .min(1, { error: 'expected the prompt as a {"text": ...} item' }),
  },
  { error: 'expected a message {role, content}' },
);

/** The native body: `{model, input: {messages: [one user message]}, parameters, response_format}`. */
export const qiNativeBodySchema = z.strictObject({
  model: z.string(),
  input: z.strictObject(
    {
      messages: z
        .array(messageSchema, { error: 'expected an array with one user message' })
        .length(1, { error: 'expected exactly one user message' }),
    },
    { error: 'expected an object {messages: [...]}' },
  ),
  parameters: qiParametersSchema.optional(),
  response_format: z.enum(['url', 'b64_json'], { error: 'expected url or b64_json' }).optional(),
});

/**
 * The flat OpenAI-style body: `prompt`, `image` (checked on its own, it may be a string or a
 * list) and the parameters at the top level.
 */
export const qiFlatBodySchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }),
  image: z.unknown().optional(),
  response_format: z.enum(['url', 'b64_json'], { error: 'expected url or b64_json' }).optional(),
  ...qiParametersSchema.shape,
});

/** The flat fields, which the native body must not mix in. */
export const qiFlatOnlyFields = ['prompt', 'image', 'n', 'negative_prompt', 'prompt_extend', 'seed', 'watermark', 'size'] as const;

const parameterNames = 'n, negative_prompt, prompt_extend, seed, watermark and size';

/** What each object of the native body takes, for messages about unknown fields. */
export const qiNativeKnownFields = (objectPath: string): string | undefined => {
  if (objectPath === '') return 'the body takes model, input, parameters and response_format';
  if (objectPath === 'parameters') return `parameters are ${parameterNames}`;
  if (objectPath === 'input') return 'input takes messages';
  if (/^input\.messages\[\d+\]$/.test(objectPath)) return 'a message takes role and content';
  if (/\.content\[\d+\]$/.test(objectPath)) return 'a content item is {"text": ...} or {"image": ...}';
  return undefined;
};

/** What the flat body takes, for messages about unknown fields. */
export const qiFlatKnownFields = (objectPath: string): string | undefined =>
  objectPath === '' ? `the flat body takes model, prompt, image, response_format, ${parameterNames}` : undefined;

/** The message about an unknown field: `input.foo: unknown field; check its spelling (input takes messages)`. */
export const qiUnknownField =
  (knownFields: (objectPath: string) => string | undefined) =>
  (field: string, objectPath: string): string => {
    const known = knownFields(objectPath);
    return `${field}: unknown field; check its spelling${known === undefined ? '' : ` (${known})`}`;
  };
