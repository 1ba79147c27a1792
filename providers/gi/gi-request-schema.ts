import { z } from 'zod';

import { expectedOneOf } from '../../core/kit/index.js';
/** The sizes every gpt-image model knows (upstreams.md §2.7); `1024x1024` is gi-2's default (spec part 2). */
const giPresetSizes: readonly string[] = ['1024x1024', '1024x1536', '1536x1024', 'auto'];

/**
 * The bounds of any other `WIDTHxHEIGHT` size. Spec part 2 only says "up to 4K with both
 * dimensions multiples of 16"; upstreams.md §2.7 says the newest gpt-image model takes any
 * `WxH`, and OpenAI's image guide bounds it like this: each side at most 3840 pixels, the long
 * side at most 3 times the short one, between 655,360 and 8,294,400 pixels (3840x2160, 4K UHD).
 */
const giSizeBounds = { multiple: 16, longestSide: 3840, widestRatio: 3, fewestPixels: 655_360, mostPixels: 8_294_400 } as const;

const pixels = (count: number) => count.toLocaleString('en-US');

/** What is wrong with a `size`, as the end of an error message, or undefined when gi-2 accepts it. */
export function giSizeProblem(size: string): string | undefined {
  if (giPresetSizes.includes(size)) return undefined;
  const match = /^([0-9]{1,5})x([0-9]{1,5})$/.exec(size);
  if (match === null) return `expected ${giPresetSizes.join(', ')}, or WIDTHxHEIGHT in pixels such as 2048x1152`;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const { multiple, longestSide, widestRatio, fewestPixels, mostPixels } = giSizeBounds;
  if (width % multiple !== 0 || height % multiple !== 0) return `both sides must be multiples of ${multiple} pixels (got ${size})`;
  if (Math.max(width, height) > longestSide) return `each side may be at most ${longestSide} pixels (got ${size})`;
  if (width * height < fewestPixels) return `the image must have at least ${pixels(fewestPixels)} pixels, such as 1024x640 (got ${size})`;
  if (width * height > mostPixels) return `the image may have at most ${pixels(mostPixels)} pixels, such as 3840x2160 (got ${size})`;
  if (Math.max(width, height) > widestRatio * Math.min(width, height)) return `the long side may be at most ${widestRatio} times the short side (got ${size})`;
  return undefined;
}

// `quality` takes `auto` too, since the upstream knows it (upstreams.md §2.7); `input_fidelity`
// has the spec's values (see `toGiInputFidelity` for what the upstream gets).
const giQualities = ['low', 'medium', 'high', 'auto'] as const;
const giInputFidelities = ['low', 'medium', 'high', 'auto'] as const;

// A multipart form sends every field as text, so the form's "80" or "false" stands for the JSON value.
const fromFormText = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
};

const imageSource = z.string({ error: 'expected an http(s) URL or a data: URI' }).min(1, { error: 'must not be empty' });

/**
 * The fields of a gi request (spec part 2, "GPT-style family"), strict: anything else is
 * refused by name. Besides the spec's fields it takes the upstream's own options (upstreams.md
 * §2.7: `background`, `output_format`, `output_compression`, `moderation`, `user`, `mask`).
 */
export const giRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z
    .string({ error: 'expected the prompt as a string' })
    .refine((prompt) => prompt.trim() !== '', { error: 'must not be empty; describe the image to make or the edit to apply' }),
  n: z.number({ error: 'expected a whole number from 1 to 10' }).int({ error: 'expected a whole number from 1 to 10' }).min(1, { error: 'expected at least 1' }).max(10, { error: 'expected at most 10 images per request' }).default(1),
  size: z
    .string({ error: 'expected a size such as 1024x1024' })
    .superRefine((size, context) => {
      const problem = giSizeProblem(size);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .default('1024x1024'),
  quality: z.enum(giQualities, expectedOneOf(giQualities)).default('high'),
  input_fidelity: z.enum(giInputFidelities, expectedOneOf(giInputFidelities)).optional(),
  image: z.union([imageSource, z.array(imageSource)], { error: 'expected an http(s) URL or a data: URI, or a list of them' }).optional(),
  images: z.array(imageSource, { error: 'expected a list of http(s) URLs or data: URIs' }).optional(),
  mask: imageSource.optional(),
  // Always b64_json: the upstream refuses the field (upstreams.md §2.7), so it is checked and never sent.
  response_format: z.enum(['b64_json', 'url'], expectedOneOf(['b64_json', 'url'])).optional(),
  background: z.enum(['transparent', 'opaque', 'auto'], expectedOneOf(['transparent', 'opaque', 'auto'])).optional(),
  output_format: z.enum(['png', 'jpeg', 'webp'], expectedOneOf(['png', 'jpeg', 'webp'])).optional(),
  output_compression: z.preprocess(
    fromFormText,
    z.number({ error: 'expected a whole number from 0 to 100' }).int({ error: 'expected a whole number from 0 to 100' }).min(0, { error: 'expected at least 0' }).max(100, { error: 'expected at most 100' }),
  ).optional(),
  moderation: z.enum(['low', 'auto'], expectedOneOf(['low', 'auto'])).optional(),
  user: z.string({ error: 'expected a string' }).optional(),
  stream: z.preprocess(fromFormText, z.literal(false, { error: 'streamed image generation is not offered; leave stream out' })).optional(),
});

/** A validated gi request, defaults applied. */
export type GiRequestFields = z.output<typeof giRequestSchema>;
