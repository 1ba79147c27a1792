import type { RecordedRequest } from '../../../core/testing/index.js';
import { dashScopeErrorBody } from './dashscope-error-body.js';
import { headerValue, isObject } from './dashscope-wire.js';

/** How a video model takes its inputs (upstreams.md §4.2): flat `input` fields, or the `input.media[]` protocol of wan2.7 and HappyHorse (§4.4). */
export type VideoProtocol = 'flat' | 'media';

/** A valid video-synthesis request, as the fake reads it. */
export interface VideoSynthesisRequest {
  model: string;
  protocol: VideoProtocol;
  mode: 't2v' | 'i2v' | 'r2v';
  prompt: string;
  input: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

/** Either the request read, or the answer DashScope gives it. */
export type VideoSynthesisCheck = { request: VideoSynthesisRequest } | { error: ReturnType<typeof dashScopeErrorBody>; status: number };

const invalid = (message: string, code = 'InvalidParameter', status = 400): VideoSynthesisCheck => ({ status, error: dashScopeErrorBody(status, message, code) });

const maxSeed = 2_147_483_647;
const mediaModels = /^(wan2\.7|happyhorse)/;
const ratiosOf = (model: string) => (model.startsWith('happyhorse') ? ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '9:21', '21:9'] : ['16:9', '9:16', '1:1', '4:3', '3:4']);
const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/[^/\s]+/i.test(value);
const isImageReference = (value: unknown) => isHttpUrl(value) || (typeof value === 'string' && /^data:image\/[a-z0-9.+-]+;base64,/i.test(value));
const isWholeIn = (value: unknown, low: number, high: number) => typeof value === 'number' && Number.isInteger(value) && value >= low && value <= high;

/** Media types each model takes, and how many of each (upstreams.md §4.2 for wan2.7, §4.4 for HappyHorse). */
const mediaLimits: Record<string, Record<string, number>> = {
  'wan2.7:t2v': {},
  'wan2.7:i2v': { first_frame: 1, last_frame: 1, driving_audio: 1, first_clip: 1 },
  'wan2.7:r2v': { reference_image: 5, reference_video: 5, first_frame: 1 },
  'happyhorse:t2v': {},
  'happyhorse:i2v': { first_frame: 1 },
  'happyhorse:r2v': { reference_image: 9 },
};
const imageTypes = new Set(['first_frame', 'last_frame', 'reference_image']);

/**
 * Checks a body of `POST /api/v1/services/aigc/video-generation/video-synthesis` the way
 * DashScope does (upstreams.md §4.1, §4.2, §4.4): the async header (without it DashScope
 * refuses, §4.1), a model and an `input` object, then the rules of the model's protocol.
 * Flat models (wan2.5 and older) take `input.prompt` / `input.img_url`, `parameters.size` for
 * text-to-video and `parameters.resolution` `480P|720P|1080P` for image-to-video. Media models
 * (wan2.7, happyhorse) take `input.media[]` items by type and count, upper-case
 * `720P|1080P`, a ratio only without a first frame, and their duration range.
 */
export function checkVideoSynthesisRequest(recorded: RecordedRequest): VideoSynthesisCheck {
  // DashScope's own words (§4.1); the reverse case is recorded as 403 AccessDenied, so this is taken to be the same.
  if (headerValue(recorded.headers['x-dashscope-async']) !== 'enable') return invalid('current user api does not support synchronous calls', 'AccessDenied', 403);
  const body = recorded.json;
  if (!isObject(body)) return invalid('The request body is not valid JSON.');
  if (typeof body.model !== 'string' || body.model === '') return invalid('Required parameter "model" missing from request.', 'BadRequest.EmptyModel');
  const model = body.model;
  const mode = /(t2v|i2v|r2v)/.exec(model)?.[1] as VideoSynthesisRequest['mode'] | undefined;
  if (!/^(wan|happyhorse)/.test(model) || mode === undefined) return invalid('Model not exist.', 'ModelNotFound', 404);
  if (!isObject(body.input)) return invalid('Required input parameter missing from request.', 'BadRequest.EmptyInput');
  const parameters = body.parameters ?? {};
  if (!isObject(parameters)) return invalid('parameters must be an object.');
  const input = body.input;
  if (input.prompt !== undefined && typeof input.prompt !== 'string') return invalid('input.prompt must be a string.');
  const prompt = (input.prompt as string | undefined) ?? '';

  const seed = parameters.seed;
  if (seed !== undefined && !isWholeIn(seed, 0, maxSeed)) return invalid(`parameters.seed must be an integer from 0 to ${maxSeed}.`);
  for (const flag of ['prompt_extend', 'watermark', 'audio']) {
    if (parameters[flag] !== undefined && typeof parameters[flag] !== 'boolean') return invalid(`parameters.${flag} must be a boolean.`);
  }
  if (input.audio_url !== undefined && !isHttpUrl(input.audio_url)) return invalid('input.audio_url must be a public http(s) URL.', 'InvalidURL');

  const protocol: VideoProtocol = mediaModels.test(model) ? 'media' : 'flat';
  const problem = protocol === 'flat' ? checkFlat(model, mode, input, parameters, prompt) : checkMedia(model, mode, input, parameters, prompt);
  return problem ?? { request: { model, protocol, mode, prompt, input, parameters } };
}

function checkFlat(model: string, mode: string, input: Record<string, unknown>, parameters: Record<string, unknown>, prompt: string): VideoSynthesisCheck | undefined {
  if (input.media !== undefined) return invalid(`input.media is not supported by ${model}.`);
  if (mode === 't2v') {
    if (prompt.trim() === '') return invalid('input.prompt is required.');
    if (input.img_url !== undefined) return invalid(`input.img_url is not supported by ${model}.`);
    if (parameters.resolution !== undefined) return invalid(`parameters.resolution is not supported by ${model}; use parameters.size.`);
    if (parameters.size !== undefined && (typeof parameters.size !== 'string' || !/^[1-9][0-9]*\*[1-9][0-9]*$/.test(parameters.size))) {
      return invalid('The size is not match the format width*height.');
    }
  } else {
    if (!isImageReference(input.img_url)) return invalid('input.img_url must be a public http(s) URL or a base64 data URI.', 'InvalidURL');
    if (parameters.size !== undefined) return invalid(`parameters.size is not supported by ${model}; use parameters.resolution.`);
    if (parameters.resolution !== undefined && !['480P', '720P', '1080P'].includes(parameters.resolution as string)) return invalid('parameters.resolution must be one of 480P, 720P, 1080P.');
  }
  const duration = parameters.duration;
  if (model.startsWith('wan2.5') ? duration !== undefined && duration !== 5 && duration !== 10 : duration !== undefined && !isWholeIn(duration, 2, 15)) {
    return invalid(`parameters.duration is not supported by ${model}.`);
  }
  return undefined;
}

function checkMedia(model: string, mode: string, input: Record<string, unknown>, parameters: Record<string, unknown>, prompt: string): VideoSynthesisCheck | undefined {
  const happyHorse = model.startsWith('happyhorse');
  if ((mode === 't2v' || mode === 'r2v') && prompt.trim() === '') return invalid('input.prompt is required.');
  if (input.img_url !== undefined) return invalid(`input.img_url is not supported by ${model}; use input.media.`);
  const media = input.media ?? [];
  if (!Array.isArray(media)) return invalid('input.media must be an array.');
  const limits = mediaLimits[`${happyHorse ? 'happyhorse' : 'wan2.7'}:${mode}`] ?? {};
  const counts: Record<string, number> = {};
  for (const [index, item] of media.entries()) {
    if (!isObject(item) || typeof item.type !== 'string' || typeof item.url !== 'string') return invalid(`input.media[${index}] must be {"type", "url"}.`);
    if (limits[item.type] === undefined) return invalid(`input.media[${index}].type ${item.type} is not supported by ${model}.`);
    if (!(imageTypes.has(item.type) ? isImageReference(item.url) : isHttpUrl(item.url))) return invalid(`input.media[${index}].url is not a valid URL.`, 'InvalidURL');
    counts[item.type] = (counts[item.type] ?? 0) + 1;
    if (counts[item.type]! > limits[item.type]!) return invalid(`Too many input.media items of type ${item.type}.`);
  }
  const count = (type: string) => counts[type] ?? 0;
  if (mode === 'i2v' && happyHorse && count('first_frame') !== 1) return invalid('input.media must hold exactly one first_frame.');
  if (mode === 'i2v' && !happyHorse) {
    if (count('first_frame') + count('first_clip') !== 1) return invalid('input.media must hold one first_frame or one first_clip.');
    if ((count('last_frame') > 0 || count('driving_audio') > 0) && count('first_frame') === 0) return invalid('last_frame and driving_audio need a first_frame.');
  }
  if (mode === 'r2v' && happyHorse && count('reference_image') < 1) return invalid('input.media must hold 1 to 9 reference_image items.');
  if (mode === 'r2v' && !happyHorse && (count('reference_image') + count('reference_video') < 1 || count('reference_image') + count('reference_video') > 5)) {
    return invalid('input.media must hold 1 to 5 reference images and videos.');
  }

  if (parameters.resolution !== undefined && parameters.resolution !== '720P' && parameters.resolution !== '1080P') return invalid('parameters.resolution must be 720P or 1080P.');
  if (parameters.ratio !== undefined) {
    if (mode === 'i2v') return invalid(`parameters.ratio is not supported by ${model}.`);
    if (!ratiosOf(model).includes(parameters.ratio as string)) return invalid(`parameters.ratio must be one of ${ratiosOf(model).join(', ')}.`);
  }
  const [low, high] = happyHorse ? [3, 15] : mode === 'r2v' && count('reference_video') > 0 ? [2, 10] : [2, 15];
  if (parameters.duration !== undefined && !isWholeIn(parameters.duration, low, high)) return invalid(`parameters.duration must be an integer from ${low} to ${high}.`);
  if (happyHorse && parameters.prompt_extend !== undefined) return invalid(`parameters.prompt_extend is not supported by ${model}.`);
  return undefined;
}
