import { z } from 'zod';

/** Clip lengths the vo models make, in seconds (spec part 2, `vo-` fields). */
export const voDurations = [4, 6, 8] as const;
export const voAspectRatios = ['16:9', '9:16'] as const;
/** Output resolutions; each is also the `resolution_multipliers` key its price is looked up by. */
export const voResolutions = ['720p', '1080p'] as const;
export const voPersonGenerations = ['allow_all', 'allow_adult', 'dont_allow'] as const;
/** The one frame rate the models render at (24 fps, the spec's default); the upstream takes no other. */
export const voFramesPerSecond = 24;
/** The spec's range for video seeds (spec part 2, Limits). */
export const voMostSeed = 2_147_483_647;
export const voMostSamples = 4;

export type VoDuration = (typeof voDurations)[number];
export type VoAspectRatio = (typeof voAspectRatios)[number];
export type VoResolution = (typeof voResolutions)[number];
export type VoPersonGeneration = (typeof voPersonGenerations)[number];

const oneOf = (values: readonly (string | number)[]) => ({ error: `expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` });
const flag = z.boolean({ error: 'expected true or false' });
const frame = (what: string) =>
  z.string({ error: `expected the ${what} as an https URL, a data: URI or base64 image data` }).refine((value) => value.trim() !== '', { error: 'must not be empty' });
const duration = z.literal(voDurations, oneOf(voDurations));
const aspectRatio = z.enum(voAspectRatios, oneOf(voAspectRatios));

/**
 * The fields of a vo submission (spec part 2, `vo-` fields), strict: anything else is
 * refused by name. Besides the spec's camelCase fields it takes the common flat `duration`
 * and `aspect_ratio` as aliases, and the upstream's own `negativePrompt` (upstreams.md §1.11).
 * Multipart files (`image`, `lastFrame`) are not part of it.
 */
export const voRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).refine((prompt) => prompt.trim() !== '', { error: 'must not be empty; describe the video' }),
  negativePrompt: z.string({ error: 'expected a string: what the video should not show' }).optional(),
  durationSeconds: duration.optional(),
  duration: duration.optional(),
  aspectRatio: aspectRatio.optional(),
  aspect_ratio: aspectRatio.optional(),
  resolution: z.enum(voResolutions, oneOf(voResolutions)).optional(),
  fps: z.literal(voFramesPerSecond, { error: `the vo models render ${voFramesPerSecond} frames a second only; send ${voFramesPerSecond} or leave fps out` }).optional(),
  image: frame('first frame').optional(),
  lastFrame: frame('last frame').optional(),
  generateAudio: flag.optional(),
  personGeneration: z.enum(voPersonGenerations, oneOf(voPersonGenerations)).optional(),
  addWatermark: flag.optional(),
  seed: z
    .number({ error: `expected a whole number from 0 to ${voMostSeed}` })
    .int({ error: `expected a whole number from 0 to ${voMostSeed}` })
    .min(0, { error: `expected a whole number from 0 to ${voMostSeed}` })
    .max(voMostSeed, { error: `expected a whole number from 0 to ${voMostSeed}` })
    .optional(),
  sampleCount: z
    .number({ error: `expected a whole number from 1 to ${voMostSamples}` })
    .int({ error: `expected a whole number from 1 to ${voMostSamples}` })
    .min(1, { error: `expected a whole number from 1 to ${voMostSamples}` })
    .max(voMostSamples, { error: `expected at most ${voMostSamples} videos per task` })
    .optional(),
});

export type VoRequestFields = z.output<typeof voRequestSchema>;
