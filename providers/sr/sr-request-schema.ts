import { z } from 'zod';

/** The clip lengths sr-2 makes, in seconds (spec part 2, "`sr-2` fields"). */
export const srSeconds = [4, 8, 12] as const;
export type SrSeconds = (typeof srSeconds)[number];

/** The sizes sr-2 makes: portrait (the default) and landscape (spec part 2, "`sr-2` fields"). */
export const srSizes = ['720x1280', '1280x720'] as const;
export type SrSize = (typeof srSizes)[number];

/** The upstream's longest prompt (upstreams.md §2.9: 1 to 32000 characters). */
export const srMostPromptCharacters = 32_000;

const secondsRule = 'expected 4, 8 or 12 (a number, or the same as a string)';

/** The image given by reference: a URL, a data: URI or bare base64, or OpenAI's JSON shape `{image_url}`. */
const inputReference = z.union(
  [
    z.string().min(1, { error: 'must not be empty' }),
    z.strictObject({ image_url: z.string({ error: 'expected an http(s) URL, a data: URI or base64' }).min(1, { error: 'must not be empty' }) }),
  ],
  { error: 'expected an http(s) URL, a data: URI or base64 of a png, jpeg or webp image' },
);

/**
 * The fields of an sr-2 submission (spec part 2, "`sr-2` fields"), strict: anything else is
 * refused by name. `seconds` comes as a number or a string (a multipart form sends text), and
 * leaves as a number. Multipart files are not part of it.
 */
export const srRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z
    .string({ error: 'expected the prompt as a string' })
    .refine((prompt) => prompt.trim() !== '', { error: 'must not be empty; describe the video to make' })
    .refine((prompt) => prompt.length <= srMostPromptCharacters, { error: `must be at most ${srMostPromptCharacters} characters` }),
  seconds: z
    .union([z.number(), z.string()], { error: secondsRule })
    .refine((value) => srSeconds.some((allowed) => String(allowed) === String(value)), { error: secondsRule })
    .transform((value) => Number(value) as SrSeconds)
    .default(4),
  size: z.enum(srSizes, { error: 'expected 720x1280 (portrait) or 1280x720 (landscape)' }).default('720x1280'),
  input_reference: inputReference.optional(),
  // Core has already checked the client's value (one of the caller's finished tasks) and put
  // that task's upstream id in its place, which may have any form the upstream gives its ids.
  remix_from_video_id: z
    .string({ error: 'expected the id of one of your finished sr-2 videos (video_...)' })
    .min(1, { error: 'expected the id of one of your finished sr-2 videos (video_...)' })
    .optional(),
});
