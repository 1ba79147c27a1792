import { z } from 'zod';
import { booleanField, expectedOneOf, seedField } from '../../core/index.js';

/** Clip lengths the vo models make, in seconds (spec part 2, `vo-` fields). */
export const voDurations = [4, 6, 8] as const;
export const voAspectRatios = ['16:9', '9:16'] as const;
/** Output resolutions; each is also the `resolution_multipliers` key its price is looked up by. */
export const voResolutions = ['720p', '1080p'] as const;
export const voPersonGenerations = ['allow_all', 'allow_adult', 'dont_allow'] as const;
/** The one frame rate the models render at (24 fps, the spec's default); the upstream takes no other. */
export const voFramesPerSecond = 24;
export const voMostSamples = 4;

export type VoDuration = (typeof voDurations)[number];
export type VoAspectRatio = (typeof voAspectRatios)[number];
export type VoResolution = (typeof voResolutions)[number];
export type VoPersonGeneration = (typeof voPersonGenerations)[number];

const frame = (what: string) =>
  z.string({ error: `expected the ${what} as an https URL, a data: URI or base64 image data` }).refine((value) => value.trim() !== '', { error: 'must not be empty' });
const duration = z.literal(voDurations, expectedOneOf(voDurations));
const aspectRatio = z.enum(voAspectRatios, expectedOneOf(voAspectRatios));

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
  resolution: z.enum(voResolutions, expectedOneOf(voResolutions)).optional(),
  fps: z.literal(voFramesPerSecond, { error: `the vo models render ${voFramesPerSecond} frames a second only; send ${voFramesPerSecond} or leave fps out` }).optional(),
  image: frame('first frame').optional(),
  lastFrame: frame('last frame').optional(),
  generateAudio: booleanField.optional(),
  personGeneration: z.enum(voPersonGenerations, expectedOneOf(voPersonGenerations)).optional(),
  addWatermark: booleanField.optional(),
  seed: seedField.optional(),
  sampleCount: z
    .number({ error: `expected a whole number from 1 to ${voMostSamples}` })
    .int({ error: `expected a whole number from 1 to ${voMostSamples}` })
    .min(1, { error: `expected a whole number from 1 to ${voMostSamples}` })
    .max(voMostSamples, { error: `expected at most ${voMostSamples} videos per task` })
    .optional(),
});

export type VoRequestFields = z.output<typeof voRequestSchema>;
