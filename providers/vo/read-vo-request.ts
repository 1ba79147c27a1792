import { z } from 'zod';
import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { booleanField, checkImageBytes, expectedOneOf, parseClientFields, quoted, readFormFields, seedField } from '../../core/kit/index.js';
import { readVoFrameText, voFrameFormats, type VoFrameField, type VoFrameSource } from './vo-frame.js';

// The values of the spec's `vo-` fields (spec part 2); each resolution is also the
// `resolution_multipliers` key its price is looked up by. The models render 24 frames a second
// (the spec's default), and the upstream takes no other rate.
const durations = [4, 6, 8] as const;
const aspectRatios = ['16:9', '9:16'] as const;
const resolutions = ['720p', '1080p'] as const;
const personGenerations = ['allow_all', 'allow_adult', 'dont_allow'] as const;
const framesPerSecond = 24;
const mostSamples = 4;
const sampleRule = `expected a whole number from 1 to ${mostSamples}`;

const frame = (what: string) =>
  z.string({ error: `expected the ${what} as an https URL, a data: URI or base64 image data` }).refine((value) => value.trim() !== '', { error: 'must not be empty' });
const duration = z.literal(durations, expectedOneOf(durations));
const aspectRatio = z.enum(aspectRatios, expectedOneOf(aspectRatios));

// The fields of a vo submission, strict: anything else is refused by name. Besides the spec's
// it takes the flat `duration` and `aspect_ratio` as aliases, and the upstream's own
// `negativePrompt` (upstreams.md §1.11).
const voRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).refine((prompt) => prompt.trim() !== '', { error: 'must not be empty; describe the video' }),
  negativePrompt: z.string({ error: 'expected a string: what the video should not show' }).optional(),
  durationSeconds: duration.optional(),
  duration: duration.optional(),
  aspectRatio: aspectRatio.optional(),
  aspect_ratio: aspectRatio.optional(),
  resolution: z.enum(resolutions, expectedOneOf(resolutions)).optional(),
  fps: z.literal(framesPerSecond, { error: `the vo models render ${framesPerSecond} frames a second only; send ${framesPerSecond} or leave fps out` }).optional(),
  image: frame('first frame').optional(),
  lastFrame: frame('last frame').optional(),
  generateAudio: booleanField.optional(),
  personGeneration: z.enum(personGenerations, expectedOneOf(personGenerations)).optional(),
  addWatermark: booleanField.optional(),
  seed: seedField.optional(),
  sampleCount: z
    .number({ error: sampleRule })
    .int({ error: sampleRule })
    .min(1, { error: sampleRule })
    .max(mostSamples, { error: `expected at most ${mostSamples} videos per task` })
    .optional(),
});

type VoRequestFields = z.output<typeof voRequestSchema>;

/** A vo submission checked against the family's rules, before any frame is fetched. */
export interface VoVideoPlan {
  prompt: string;
  negativePrompt?: string;
  durationSeconds: (typeof durations)[number];
  aspectRatio: (typeof aspectRatios)[number];
  resolution: (typeof resolutions)[number];
  /** Videos to make; each is billed. */
  sampleCount: number;
  /** Sent only when the client chose one, so the upstream's own default applies otherwise. */
  personGeneration?: (typeof personGenerations)[number];
  firstFrame?: VoFrameSource;
  lastFrame?: VoFrameSource;
}

// A multipart form sends every field as text; its "8" or "false" stands for the JSON value.
const formFieldKinds = { integers: ['durationSeconds', 'sampleCount', 'fps', 'seed', 'duration'], booleans: ['generateAudio', 'addWatermark'] };
const frameFields = new Set<string>(['image', 'lastFrame']);

/** One value from a spec field and its common flat alias; both given must agree. */
function aliased<Value>(value: Value | undefined, name: string, alias: Value | undefined, aliasName: string): Value | undefined {
  if (value !== undefined && alias !== undefined && value !== alias) {
    throw invalidRequest(`${aliasName}: conflicts with ${name}; send only ${name}`, { param: aliasName });
  }
  return value ?? alias;
}

/** The frames from text fields and multipart files; one source per frame. */
function readFrames(request: VideoSubmitRequest, fields: VoRequestFields): Partial<Record<VoFrameField, VoFrameSource>> {
  const frames: Partial<Record<VoFrameField, VoFrameSource>> = {};
  if (fields.image !== undefined) frames.image = readVoFrameText(fields.image, 'image');
  if (fields.lastFrame !== undefined) frames.lastFrame = readVoFrameText(fields.lastFrame, 'lastFrame');
  for (const upload of request.uploads ?? []) {
    if (!frameFields.has(upload.field)) {
      throw invalidRequest(`unknown file field ${quoted(upload.field)}: send the first frame as image and the last frame as lastFrame`, { param: upload.field });
    }
    const field = upload.field as VoFrameField;
    if (frames[field] !== undefined) throw invalidRequest(`${field}: send one ${field}, as a file or as text, not both or twice`, { param: field });
    checkImageBytes(upload.data, field, voFrameFormats);
    frames[field] = { field, kind: 'upload', data: upload.data };
  }
  return frames;
}

/**
 * Checks a vo submission against the family's rules (spec part 2, `vo-` fields) without any
 * I/O; fields the Gemini API has no use for (`fps`, `seed`, `generateAudio`, `addWatermark`)
 * are checked and dropped. Throws a 400 `invalid_request` naming the field.
 */
export function readVoRequest(request: VideoSubmitRequest): VoVideoPlan {
  const { uploads, ...rest } = request;
  if (rest.metadata !== undefined) {
    throw invalidRequest('metadata: the vo models take flat fields; send durationSeconds, aspectRatio, resolution and the rest at the top level', { param: 'metadata' });
  }
  const known = Object.keys(voRequestSchema.shape).join(', ');
  const unknownField = (field: string) => `unknown field ${quoted(field)}: vo models take ${known}`;
  const fields = parseClientFields(voRequestSchema, uploads === undefined ? rest : readFormFields(rest, formFieldKinds), { unknownField });
  const frames = readFrames(request, fields);
  // Only `vo-3.1…` ids make first-and-last-frame videos (spec part 2, "Models and per-family
  // fields"); any other id is treated like 3.0, rather than sent to a model that may not know it.
  if (frames.lastFrame !== undefined && !/^vo-3\.1(?![0-9])/.test(request.model)) {
    throw invalidRequest(`lastFrame: ${request.model} makes videos from a first frame only; use vo-3.1-fast-generate-preview for a first and a last frame`, { param: 'lastFrame' });
  }
  if (frames.lastFrame !== undefined && frames.image === undefined) {
    throw invalidRequest('lastFrame: a last frame needs a first frame too; send image as well', { param: 'lastFrame' });
  }
  // The spec's defaults: 4 seconds, 16:9, 1080p, one video.
  return {
    prompt: fields.prompt,
    ...(fields.negativePrompt === undefined ? {} : { negativePrompt: fields.negativePrompt }),
    durationSeconds: aliased(fields.durationSeconds, 'durationSeconds', fields.duration, 'duration') ?? 4,
    aspectRatio: aliased(fields.aspectRatio, 'aspectRatio', fields.aspect_ratio, 'aspect_ratio') ?? '16:9',
    resolution: fields.resolution ?? '1080p',
    sampleCount: fields.sampleCount ?? 1,
    ...(fields.personGeneration === undefined ? {} : { personGeneration: fields.personGeneration }),
    ...(frames.image === undefined ? {} : { firstFrame: frames.image }),
    ...(frames.lastFrame === undefined ? {} : { lastFrame: frames.lastFrame }),
  };
}
