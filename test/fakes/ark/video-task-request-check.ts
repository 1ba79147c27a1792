import { arkErrorBody, arkInvalidParameterBody, type ArkErrorBody } from './ark-error-body.js';
import { isObject } from './ark-wire.js';

/** What the task routes make for a create that passed its checks (upstreams.md §3.3). */
export interface VideoTaskPlan {
  model: string;
  resolution: string;
  ratio: string;
  /** Seconds; absent when `frames` set the length. */
  duration?: number;
  frames?: number;
  framesPerSecond: number;
  seed: number;
  generateAudio?: boolean;
  returnLastFrame: boolean;
  /** The `asset://` ids the content names, with the item type they were given as. */
  assets: Array<{ id: string; type: string; param: string }>;
}

/** A refusal: the status and Ark's error body. */
export interface VideoTaskRefusal {
  status: number;
  body: ArkErrorBody;
}

const roles: Record<string, readonly string[]> = {
  image_url: ['first_frame', 'last_frame', 'reference_image'],
  video_url: ['reference_video'],
  audio_url: ['reference_audio'],
};
const mediaUrl = /^(https?:\/\/|data:[a-z]+\/[a-z0-9.+-]+;base64,|asset:\/\/)/i;
// Ark's legacy markers and their long forms (upstreams.md §3.3); the value follows the marker.
const markers: Record<string, string> = {
  rs: 'resolution', resolution: 'resolution', rt: 'ratio', ratio: 'ratio', dur: 'duration', duration: 'duration', frames: 'frames',
  fps: 'framespersecond', framespersecond: 'framespersecond', framepersecond: 'framespersecond', seed: 'seed',
  wm: 'watermark', watermark: 'watermark', cf: 'camera_fixed', camerafixed: 'camera_fixed',
};

function readMarkers(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  const tokens = text.split(/\s+/);
  tokens.forEach((token, index) => {
    const name = /^--([A-Za-z]+)$/.exec(token)?.[1]?.toLowerCase();
    const field = name === undefined ? undefined : markers[name];
    const value = tokens[index + 1];
    if (field !== undefined && value !== undefined) found[field] = value;
  });
  return found;
}

/**
 * Checks a `POST /contents/generations/tasks` body the way Ark does, loosely: a model,
 * a non-empty `content[]` of text, image, video, audio and draft items with URLs and known
 * roles. The options come from the top-level fields or, failing them, the text's markers;
 * `models`, when given, lists the models that exist (another is a 404).
 */
export function checkVideoTaskRequest(body: unknown, requestId: string, models: readonly string[] | undefined): VideoTaskPlan | VideoTaskRefusal {
  const invalid = (param: string, why: string): VideoTaskRefusal => ({ status: 400, body: arkInvalidParameterBody(param, why, requestId) });
  if (!isObject(body)) return { status: 400, body: arkErrorBody(400, { message: 'The request body is not valid JSON.', requestId }) };
  const { model, content } = body;
  if (typeof model !== 'string' || model === '') return invalid('model', 'a model is required');
  if (models !== undefined && !models.includes(model)) {
    return { status: 404, body: arkErrorBody(404, { message: `The model or endpoint ${model} does not exist or you do not have access to it.`, requestId }) };
  }
  if (!Array.isArray(content) || content.length === 0) return invalid('content', 'content must be a non-empty array');
  let text = '';
  const assets: VideoTaskPlan['assets'] = [];
  for (const [index, item] of content.entries()) {
    const at = `content[${index}]`;
    if (!isObject(item) || typeof item.type !== 'string') return invalid(`${at}.type`, 'each item needs a type');
    if (item.type === 'text') {
      if (typeof item.text !== 'string') return invalid(`${at}.text`, 'text must be a string');
      text = item.text;
      continue;
    }
    if (item.type === 'draft_task') continue;
    const allowed = roles[item.type];
    if (allowed === undefined) return invalid(`${at}.type`, `unknown content type ${item.type}`);
    const inner = item[item.type];
    const url = isObject(inner) ? inner.url : undefined;
    if (typeof url !== 'string' || !mediaUrl.test(url)) return invalid(`${at}.${item.type}.url`, 'expected an http(s) URL, a base64 data URI or an asset:// reference');
    if (item.role !== undefined && !allowed.includes(String(item.role))) return invalid(`${at}.role`, `role ${String(item.role)} is not valid for ${item.type}`);
    if (url.startsWith('asset://')) assets.push({ id: url.slice('asset://'.length), type: item.type, param: `${at}.${item.type}.url` });
  }
  const marked = readMarkers(text);
  const option = (field: string): unknown => body[field] ?? marked[field];
  const number = (field: string): number | undefined => {
    const value = option(field);
    const parsed = typeof value === 'string' ? Number(value) : value;
    return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
  };
  const hasImage = content.some((item) => isObject(item) && item.type === 'image_url');
  const seed = number('seed');
  const frames = number('frames');
  return {
    model,
    resolution: String(option('resolution') ?? '720p'),
    ratio: String(option('ratio') ?? (hasImage ? 'adaptive' : '16:9')),
    ...(frames === undefined ? { duration: number('duration') ?? 5 } : { frames }),
    framesPerSecond: number('framespersecond') ?? 24,
    seed: seed === undefined || seed < 0 ? Math.floor(Math.random() * 2 ** 31) : seed,
    ...(typeof body.generate_audio === 'boolean' ? { generateAudio: body.generate_audio } : {}),
    returnLastFrame: body.return_last_frame === true,
    assets,
  };
}

/** True for a refusal rather than a plan. */
export const isVideoTaskRefusal = (value: VideoTaskPlan | VideoTaskRefusal): value is VideoTaskRefusal => 'body' in value;
