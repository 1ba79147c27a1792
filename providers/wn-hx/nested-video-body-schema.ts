import { z } from 'zod';
import { booleanField, seedField } from '../../core/index.js';

const wholeSeconds = z.int({ error: 'expected a whole number of seconds' });
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/**
 * What a family adds to the nested body. Each group of fields goes after the common ones
 * named here, in the order given: the order in which fields are checked and sent upstream.
 */
export interface NestedVideoBodyExtras<Input extends z.ZodRawShape, MediaItem extends z.ZodRawShape, Parameters extends z.ZodRawShape> {
  /** Fields of `metadata.input` after `prompt` and before `media`. */
  input: Input;
  /** Fields of a `metadata.input.media[]` item after `type` and `url`. */
  mediaItem: MediaItem;
  /** Fields of `metadata.parameters` after `duration` and before `watermark`. */
  parameters: Parameters;
  /** The aspect ratios the family takes, named when a ratio is not a string. */
  ratios: readonly string[];
}

/**
 * The nested body of spec part 2 (wn2.7 and hx columns), strictly: top-level `model`,
 * `prompt` and `duration`, and `metadata` `{input: {prompt, media}, parameters: {resolution,
 * ratio, duration, watermark, seed}}` with the family's own fields added.
 */
export function nestedVideoBodySchema<Input extends z.ZodRawShape, MediaItem extends z.ZodRawShape, Parameters extends z.ZodRawShape>(
  extras: NestedVideoBodyExtras<Input, MediaItem, Parameters>,
) {
  return z.strictObject({
    model: z.string(),
    prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
    duration: wholeSeconds.optional(),
    metadata: z.strictObject(
      {
        input: z.strictObject(
          {
            prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
            ...extras.input,
            media: z
              .array(
                z.strictObject(
                  { type: z.string({ error: 'expected the media type as a string' }), url: z.string({ error: 'expected the URL as a string' }), ...extras.mediaItem },
                  { error: 'expected a {type, url} item' },
                ),
                { error: 'expected a list of {type, url} items' },
              )
              .optional(),
          },
          { error: 'expected an object' },
        ),
        parameters: z
          .strictObject(
            {
              resolution: z.preprocess(upperCase, z.enum(['720P', '1080P'], { error: 'expected 720P or 1080P' })).optional(),
              ratio: z.string({ error: `expected one of ${extras.ratios.join(', ')}` }).optional(),
              duration: wholeSeconds.optional(),
              ...extras.parameters,
              watermark: booleanField.optional(),
              seed: seedField.optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
      },
      { error: 'expected an object with input and parameters' },
    ),
  });
}

/** The common part of a nested body once parsed, whatever the family adds. */
export interface NestedVideoBody {
  model: string;
  prompt?: string | undefined;
  duration?: number | undefined;
  metadata: {
    input: { prompt?: string | undefined; media?: Array<{ type: string; url: string }> | undefined };
    parameters?: { resolution?: '720P' | '1080P' | undefined; ratio?: string | undefined; duration?: number | undefined; watermark?: boolean | undefined; seed?: number | undefined } | undefined;
  };
}
