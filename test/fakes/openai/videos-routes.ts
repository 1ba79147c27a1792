import type { RecordedRequest } from '../../../core/testing/index.js';
import { invalidValueBody, openAiErrorBody } from './openai-error-body.js';
import { jsonAnswer, openAiHeaders, type OpenAiRoute } from './openai-wire.js';
import type { VideoBehaviour } from './videos-behaviour.js';
import { fakeMp4, fakeWebp } from './videos-content.js';
import { videoObject } from './videos-object.js';
import { readVideoCreateRequest, readVideoRemixRequest } from './videos-request.js';
import { FakeVideoStore } from './videos-store.js';

/** The routes of the videos API and what the fake's route table needs of them. */
export interface VideosRoutes {
  /** `POST /v1/videos`. */
  create: OpenAiRoute;
  /** The route for a request under `/v1/videos/{id}`, or undefined when it is not one. */
  routeFor(request: Pick<RecordedRequest, 'method' | 'path'>): OpenAiRoute | undefined;
  /** The videos made so far, for tests that look inside. */
  store: FakeVideoStore;
}

const videoPath = /^\/v1\/videos\/([^/]+)(\/content|\/remix)?$/;
const variants = ['video', 'thumbnail', 'spritesheet'];

// The API's 404 for an unknown video id; the message is the fake's own wording.
const notFound = (id: string) => openAiErrorBody(404, `Video '${id}' not found.`, null, 'not_found');

/** Binary content with its length, as `/content` sends it. */
function bytesAnswer(bytes: Buffer, contentType: string, started: number) {
  return { status: 200, headers: { ...openAiHeaders(contentType, started), 'content-length': String(bytes.length) }, pieces: [bytes], streamed: false };
}

/**
 * The videos API of upstreams.md §2.9 on the fake OpenAI upstream:
 * - `POST /v1/videos` (JSON or multipart) → a queued video object;
 * - `GET /v1/videos/{id}` moves the video one step of its script and shows it: by default
 *   `in_progress` (with progress), then `completed`; a `video` behaviour on the create request
 *   scripts failure (with its error code and message, such as `moderation_blocked`) or makes
 *   the fake forget the video (404 from then on);
 * - `GET /v1/videos/{id}/content?variant=video|thumbnail|spritesheet` → the fake's mp4 (or a
 *   webp preview) once completed; 404 before, as OpenAI does while a video is not ready;
 * - `POST /v1/videos/{id}/remix` with a prompt → a new queued video with
 *   `remixed_from_video_id` and the original's model, length and size (completed originals only).
 */
export function videosRoutes(): VideosRoutes {
  const store = new FakeVideoStore();

  const create: OpenAiRoute = async ({ request, behaviour, started }) => {
    const reading = await readVideoCreateRequest(request);
    if ('refusal' in reading) return jsonAnswer(400, reading.refusal, started);
    const { model, prompt, size, seconds } = reading.facts;
    const video = store.create({ model, prompt, size, seconds, remixedFromVideoId: null }, (behaviour as VideoBehaviour).video);
    return jsonAnswer(200, videoObject(video), started);
  };

  const retrieve = (id: string): OpenAiRoute => ({ started }) => {
    const video = store.advance(id);
    return video === undefined ? jsonAnswer(404, notFound(id), started) : jsonAnswer(200, videoObject(video), started);
  };

  const content = (id: string): OpenAiRoute => ({ request, started }) => {
    const video = store.get(id);
    if (video === undefined) return jsonAnswer(404, notFound(id), started);
    const variant = request.query.variant ?? 'video';
    if (!variants.includes(variant)) return jsonAnswer(400, invalidValueBody('variant', `Invalid value: '${variant}'. Supported values are: 'video', 'thumbnail', and 'spritesheet'.`), started);
    if (video.status !== 'completed') return jsonAnswer(404, openAiErrorBody(404, `Video is not ready yet, use GET /v1/videos/${id} to check status.`, null, null), started);
    return variant === 'video' ? bytesAnswer(fakeMp4(id), 'video/mp4', started) : bytesAnswer(fakeWebp(id), 'image/webp', started);
  };

  const remix = (id: string): OpenAiRoute => async ({ request, behaviour, started }) => {
    const original = store.get(id);
    if (original === undefined) return jsonAnswer(404, notFound(id), started);
    const reading = await readVideoRemixRequest(request);
    if ('refusal' in reading) return jsonAnswer(400, reading.refusal, started);
    if (original.status !== 'completed') {
      return jsonAnswer(400, openAiErrorBody(400, `Video '${id}' is ${original.status}; only completed videos can be remixed.`, null, 'invalid_value'), started);
    }
    const { model, size, seconds } = original;
    const video = store.create({ model, size, seconds, prompt: reading.facts.prompt, remixedFromVideoId: id }, (behaviour as VideoBehaviour).video);
    return jsonAnswer(200, videoObject(video), started);
  };

  return {
    create,
    store,
    routeFor: ({ method, path }) => {
      const match = videoPath.exec(path);
      if (match === null) return undefined;
      const id = decodeURIComponent(match[1]!);
      if (method === 'GET' && match[2] === undefined) return retrieve(id);
      if (method === 'GET' && match[2] === '/content') return content(id);
      if (method === 'POST' && match[2] === '/remix') return remix(id);
      return undefined;
    },
  };
}
