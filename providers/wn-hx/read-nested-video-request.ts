import { z } from 'zod';
import type { VideoSubmitRequest } from '../../core/index.js';
import { booleanField, fieldError, parseClientFields, seedField } from '../../core/kit/index.js';
import type { DashScopeVideoJob, VideoTier } from './dashscope-video-family.js';

/** What a nested-body model makes its video from: text, a first frame (or clip), or references. */
export type NestedVideoMode = 't2v' | 'i2v' | 'r2v';

const wholeSeconds = z.int({ error: 'expected a whole number of seconds' });
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/**
 * The nested body of spec part 2 (wn2.7 and hx columns), strictly: top-level `model`,
 * `prompt` and `duration`, and `metadata` `{input: {prompt, media}, parameters: {resolution,
 * ratio, duration, watermark, seed}}` with the family's own fields added. Each group of extra
 * fields goes after the common ones named here, in the order given: the order in which fields
 * are checked and sent upstream. `ratios` are named when a ratio is not a string.
 */
export function nestedVideoBodySchema<Input extends z.ZodRawShape, MediaItem extends z.ZodRawShape, Parameters extends z.ZodRawShape>(extras: {
  /** Fields of `metadata.input` after `prompt` and before `media`. */
  input: Input;
  /** Fields of a `metadata.input.media[]` item after `type` and `url`. */
  mediaItem: MediaItem;
  /** Fields of `metadata.parameters` after `duration` and before `watermark`. */
  parameters: Parameters;
  ratios: readonly string[];
}) {
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
type NestedVideoBody = z.output<ReturnType<typeof nestedVideoBodySchema<{}, {}, {}>>>;

/** How a family's nested body differs from the common one (spec part 2, the wn2.7 and hx columns). */
export interface NestedVideoRules<Body extends NestedVideoBody> {
  /** The family's body, built with `nestedVideoBodySchema`. */
  schema: z.ZodType<Body>;
  /** Who takes the body, in the message about an unknown top-level field: `hx models`. */
  takenBy: string;
  /** The fields of each object of the body, in the message about an unknown field in it: `prompt and media`. */
  fieldLists: { input: string; parameters: string; mediaItem: string };
  /** The refusal of a multipart body. */
  multipartRefusal: string;
  /** How a reference-to-video prompt names its references: `[Image 1]...`. */
  referenceNaming: string;
  /** The aspect ratios the family takes. */
  ratios: readonly string[];
  /** Why image-to-video takes no ratio. */
  imageToVideoRatioRefusal: string;
  /** The resolution sent when the client names none. */
  defaultResolution: '720P' | '1080P';
  /**
   * Checks the media and the family's own `metadata.input` fields for the mode (after the
   * prompt, before the duration) and returns them as the upstream gets them (after `prompt`,
   * in the order sent), with the durations allowed and, when the longest is shorter than
   * usual, why (`when reference videos are given`).
   */
  readInput(
    input: Body['metadata']['input'],
    mode: NestedVideoMode,
    model: string,
  ): { input: Record<string, unknown>; durations: { shortest: number; longest: number; reason?: string } };
  /** The family's own parameters as sent, between `duration` and `watermark`. */
  extraParameters(parameters: NonNullable<Body['metadata']['parameters']>): Record<string, unknown>;
}

/** What the object at `objectPath` takes, for the message about an unknown field in it. */
function knownFields(rules: Pick<NestedVideoRules<NestedVideoBody>, 'takenBy' | 'fieldLists'>, objectPath: string): string {
  if (objectPath === '') return `${rules.takenBy} take model, prompt, duration and metadata; other settings go in metadata.parameters`;
  if (objectPath === 'metadata') return 'metadata takes input and parameters';
  if (objectPath === 'metadata.input') return `metadata.input takes ${rules.fieldLists.input}`;
  if (objectPath === 'metadata.parameters') return `metadata.parameters takes ${rules.fieldLists.parameters}`;
  return `media items take ${rules.fieldLists.mediaItem}`;
}

/**
 * A top-level field and its copy inside metadata: either may be given, and when both are
 * they must agree (spec part 2: "duration: keep equal to metadata.parameters.duration").
 */
function agreed<Value>(top: Value | undefined, nested: Value | undefined, topPath: string, nestedPath: string): Value | undefined {
  if (top !== undefined && nested !== undefined && top !== nested) {
    throw fieldError(topPath, `${JSON.stringify(top)} differs from ${nestedPath} (${JSON.stringify(nested)}); keep them equal, or send only one`);
  }
  return nested ?? top;
}

/**
 * Reads a nested submission (`{model, prompt?, duration?, metadata: {input, parameters?}}`,
 * JSON only) by a family's rules and maps it onto DashScope's media protocol (upstreams.md
 * §4.2, §4.4): `metadata.input` and `metadata.parameters` become the upstream's `input` and
 * `parameters`; the top-level `prompt` and `duration` fill in `input.prompt` and
 * `parameters.duration` when those are missing. `resolution` and `duration` (default 5) are
 * always sent, since they decide the price; other defaults are the upstream's own and left
 * to it. Pure and synchronous, so the estimate and the submit read the request the same way.
 */
export function readNestedVideoRequest<Body extends NestedVideoBody>(request: VideoSubmitRequest, mode: NestedVideoMode, rules: NestedVideoRules<Body>): DashScopeVideoJob {
  if (request.uploads !== undefined) throw fieldError('metadata', rules.multipartRefusal);
  const body = parseClientFields(rules.schema, request, { unknownField: (field, objectPath) => `${field}: unknown field; ${knownFields(rules, objectPath)}` });
  const model = body.model;
  const { input, parameters = {} } = body.metadata;

  const prompt = agreed(body.prompt, input.prompt, 'prompt', 'metadata.input.prompt');
  if (mode !== 'i2v' && (prompt === undefined || prompt.trim() === '')) {
    throw fieldError('metadata.input.prompt', `${prompt === undefined ? 'required' : 'must not be empty'}: ${model} needs a prompt${mode === 'r2v' ? ` that names its references (${rules.referenceNaming})` : ''}`);
  }
  const read = rules.readInput(input, mode, model);

  const durationPath = parameters.duration === undefined && body.duration !== undefined ? 'duration' : 'metadata.parameters.duration';
  const seconds = agreed(body.duration, parameters.duration, 'duration', 'metadata.parameters.duration') ?? 5;
  const { shortest, longest, reason } = read.durations;
  if (seconds < shortest || seconds > longest) throw fieldError(durationPath, `expected ${shortest} to ${longest} seconds${reason === undefined ? '' : ` ${reason}`}`);
  if (parameters.ratio !== undefined) {
    if (mode === 'i2v') throw fieldError('metadata.parameters.ratio', rules.imageToVideoRatioRefusal);
    if (!rules.ratios.includes(parameters.ratio)) throw fieldError('metadata.parameters.ratio', `expected one of ${rules.ratios.join(', ')}`);
  }
  const resolution = parameters.resolution ?? rules.defaultResolution;
  const tier = resolution.toLowerCase() as VideoTier;

  return {
    input: { ...(prompt === undefined ? {} : { prompt }), ...read.input },
    parameters: {
      resolution,
      ...(parameters.ratio === undefined ? {} : { ratio: parameters.ratio }),
      duration: seconds,
      ...rules.extraParameters(parameters),
      ...(parameters.watermark === undefined ? {} : { watermark: parameters.watermark }),
      ...(parameters.seed === undefined ? {} : { seed: parameters.seed }),
    },
    seconds,
    tier,
    details: { seconds, resolution: tier },
    clientField: (upstreamPath) => `metadata.${upstreamPath}`,
  };
}
