import { z } from 'zod';
import { booleanField, quoted } from '../../core/kit/index.js';
import type { DsxModelProfile } from './dsx-model-profiles.js';

// Strict: a field this family does not know is a 400 naming it, never silently dropped
// (spec part 2, `dsx-` fields and the Seedance-style 2.0 rows; upstreams.md §3.3–§3.4).

const url = z.string({ error: 'expected the URL as a string' }).min(1, { error: 'expected a URL, not an empty string' });

const textItem = z.strictObject({
  type: z.literal('text'),
  text: z.string({ error: 'expected the prompt as a string' }),
});

const imageItem = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({ url }, { error: 'expected {"url": "..."}' }),
  role: z.enum(['first_frame', 'last_frame', 'reference_image'], { error: 'expected first_frame, last_frame or reference_image' }).optional(),
});

const videoItem = z.strictObject({
  type: z.literal('video_url'),
  video_url: z.strictObject({ url }, { error: 'expected {"url": "..."}' }),
  role: z.literal('reference_video', { error: 'expected reference_video' }).optional(),
});

const audioItem = z.strictObject({
  type: z.literal('audio_url'),
  audio_url: z.strictObject({ url }, { error: 'expected {"url": "..."}' }),
  role: z.literal('reference_audio', { error: 'expected reference_audio' }).optional(),
});

/** One `metadata.content[]` item of a 1.x request: the prompt, or an image. */
export const dsxLegacyItemSchema = z.discriminatedUnion('type', [textItem, imageItem], { error: 'expected an item of type text or image_url' });

/** One `metadata.content[]` item of a 2.0 request: the prompt, or an image, video or audio reference. */
export const sdxItemSchema = z.discriminatedUnion('type', [textItem, imageItem, videoItem, audioItem], {
  error: 'expected an item of type text, image_url, video_url or audio_url',
});

export type DsxContentItem = z.output<typeof sdxItemSchema>;

const callbackUrl = z.string({ error: 'expected an https URL' });
const contentOf = <Item extends z.ZodType>(item: Item) =>
  z.array(item, { error: 'expected an array of content items' }).min(1, { error: 'expected at least one item' });

/** The body of a 1.x (`dsx-`) submission: model, an optional prompt, and `metadata`. */
export const dsxLegacyRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  metadata: z
    .strictObject(
      {
        content: contentOf(dsxLegacyItemSchema).optional(),
        return_last_frame: booleanField.optional(),
        callback_url: callbackUrl.optional(),
      },
      { error: 'expected an object with content, return_last_frame and callback_url' },
    )
    .optional(),
});

const integer = (message: string) => z.number({ error: message }).int({ error: message });
const seedRange = { error: 'expected a whole number from -1 (random) to 4294967295' };

/** The body of a 2.0 (`sdx-`) submission: the common flat fields plus `metadata`. */
export const sdxRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  image: z.string({ error: 'expected the first frame as a URL, a data URI, base64 or asset://<virtual id>' }).optional(),
  duration: integer('expected whole seconds').optional(),
  resolution: z.string({ error: 'expected a resolution such as 720p' }).optional(),
  aspect_ratio: z.string({ error: 'expected an aspect ratio such as 16:9' }).optional(),
  metadata: z
    .strictObject(
      {
        content: contentOf(sdxItemSchema).optional(),
        return_last_frame: booleanField.optional(),
        callback_url: callbackUrl.optional(),
        generate_audio: booleanField.optional(),
        watermark: booleanField.optional(),
        seed: integer(seedRange.error).min(-1, seedRange).max(4_294_967_295, seedRange).optional(),
      },
      { error: 'expected an object with content, return_last_frame, callback_url, generate_audio, watermark and seed' },
    )
    .optional(),
});

/** The message about a field a family does not know, for `parseClientFields`' `unknownField`. */
export const dsxUnknownField = (family: string) => (field: string) =>
  `unknown field ${quoted(field)}; ${family} do not take it (check its spelling and spec part 2's field table)`;

/** An `asset://` reference of a submission, for the asset lookup. */
export interface DsxAssetReference {
  /** The virtual id after `asset://`. */
  id: string;
  /** Where the client wrote it, e.g. `metadata.content[2].video_url.url`. */
  param: string;
  /** Its position in the upstream `content[]`. */
  index: number;
  type: 'image_url' | 'video_url' | 'audio_url';
}

/** A checked submission: what goes upstream and what it is billed by. */
export interface DsxSubmission {
  profile: DsxModelProfile;
  /** The upstream `content[]`, in order. */
  content: DsxContentItem[];
  /** Ark's top-level fields besides `model` and `content` (upstreams.md §3.3). */
  fields: Record<string, string | number | boolean>;
  /** The seconds billed: the duration, or frames / frame rate. */
  seconds: number;
  /** The output resolution billed, a `resolution_multipliers` key. */
  resolution: string;
  /** The frames asked for with `--frames` (1.5 pro). */
  frames?: number;
  ratio?: string;
  assets: DsxAssetReference[];
}
