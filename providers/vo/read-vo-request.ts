import { checkImageBytes, invalidRequest, parseClientFields, quoted, readFormFields, type VideoSubmitRequest } from '../../core/index.js';
import { voModelTakesLastFrame } from './vo-model-rules.js';
import { readVoFrameText, voFrameFormats, type VoFrameField, type VoFrameSource } from './read-vo-frame.js';
import {
  voRequestSchema,
  type VoAspectRatio,
  type VoDuration,
  type VoPersonGeneration,
  type VoRequestFields,
  type VoResolution,
} from './vo-request-schema.js';

/** A vo submission checked against the family's rules, before any frame is fetched. */
export interface VoVideoPlan {
  prompt: string;
  negativePrompt?: string;
  durationSeconds: VoDuration;
  aspectRatio: VoAspectRatio;
  resolution: VoResolution;
  /** Videos to make; each is billed. */
  sampleCount: number;
  /** Sent only when the client chose one, so the upstream's own default applies otherwise. */
  personGeneration?: VoPersonGeneration;
  firstFrame?: VoFrameSource;
  lastFrame?: VoFrameSource;
}

// The spec's defaults (spec part 2, `vo-` fields).
const defaults = { durationSeconds: 4, aspectRatio: '16:9', resolution: '1080p', sampleCount: 1 } as const;

// A multipart form sends every field as text; its "8" or "false" stands for the JSON value.
const formFieldKinds = { integers: ['durationSeconds', 'sampleCount', 'fps', 'seed', 'duration'], booleans: ['generateAudio', 'addWatermark'] };
const frameFields = new Set<string>(['image', 'lastFrame']);

/** The validated fields, or a 400 naming the first wrong field and what to send instead. */
function parseFields(fields: Record<string, unknown>): VoRequestFields {
  if (fields.metadata !== undefined) {
    throw invalidRequest('metadata: the vo models take flat fields; send durationSeconds, aspectRatio, resolution and the rest at the top level', { param: 'metadata' });
  }
  const known = Object.keys(voRequestSchema.shape).join(', ');
  return parseClientFields(voRequestSchema, fields, { unknownField: (field) => `unknown field ${quoted(field)}: vo models take ${known}` });
}

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
 * I/O: the strict fields, their defaults, the aliases, and the frames (a last frame only on
 * 3.1 models, and only after a first frame). Fields the upstream has no use for on the
 * Gemini API (`fps`, `seed`, `generateAudio`, `addWatermark`) are checked and then dropped.
 * @throws GatewayError 400 `invalid_request` naming the field.
 */
export function readVoRequest(request: VideoSubmitRequest): VoVideoPlan {
  const { uploads, ...rest } = request;
  const fields = parseFields(uploads === undefined ? rest : readFormFields(rest, formFieldKinds));
  const frames = readFrames(request, fields);
  if (frames.lastFrame !== undefined && !voModelTakesLastFrame(request.model)) {
    throw invalidRequest(`lastFrame: ${request.model} makes videos from a first frame only; use vo-3.1-fast-generate-preview for a first and a last frame`, { param: 'lastFrame' });
  }
  if (frames.lastFrame !== undefined && frames.image === undefined) {
    throw invalidRequest('lastFrame: a last frame needs a first frame too; send image as well', { param: 'lastFrame' });
  }
  return {
    prompt: fields.prompt,
    ...(fields.negativePrompt === undefined ? {} : { negativePrompt: fields.negativePrompt }),
    durationSeconds: aliased(fields.durationSeconds, 'durationSeconds', fields.duration, 'duration') ?? defaults.durationSeconds,
    aspectRatio: aliased(fields.aspectRatio, 'aspectRatio', fields.aspect_ratio, 'aspect_ratio') ?? defaults.aspectRatio,
    resolution: fields.resolution ?? defaults.resolution,
    sampleCount: fields.sampleCount ?? defaults.sampleCount,
    ...(fields.personGeneration === undefined ? {} : { personGeneration: fields.personGeneration }),
    ...(frames.image === undefined ? {} : { firstFrame: frames.image }),
    ...(frames.lastFrame === undefined ? {} : { lastFrame: frames.lastFrame }),
  };
}
