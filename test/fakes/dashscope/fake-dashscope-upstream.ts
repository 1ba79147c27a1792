import { playConnectionBehaviour, scriptedFake, sendPieces, startFakeServer, type PiecewiseAnswer, type ScriptedFake } from '../../../core/testing/index.js';
import type { DashScopeBehaviour } from './dashscope-behaviour.js';
import { dashScopeErrorBody, missingApiKeyBody } from './dashscope-error-body.js';
import { headerValue, jsonAnswer, type DashScopeRoute } from './dashscope-wire.js';
import { imageGenerationPath, imageGenerationRoute } from './image-generation-answer.js';
import { ResultImages, type GeneratedImage } from './result-images.js';
import { taskRoute } from './task-answer.js';
import { videoSynthesisPath, videoSynthesisRoute } from './video-synthesis-answer.js';
import { VideoTasks, type FakeVideoTask } from './video-tasks.js';

export type { RecordedRequest } from '../../../core/testing/index.js';
export type {
  DashScopeBehaviour,
  DashScopeBlock,
  DashScopeImageVariant,
  DashScopeTaskFailure,
  DashScopeTaskStatus,
  DashScopeVideoTaskBehaviour,
} from './dashscope-behaviour.js';
export type { GeneratedImage } from './result-images.js';
export type { FakeVideoTask } from './video-tasks.js';
export type { VideoSynthesisRequest } from './video-synthesis-request.js';
export { dashScopeErrorBody } from './dashscope-error-body.js';
export { imageGenerationPath } from './image-generation-answer.js';
export { samplePng, samplePngBase64 } from './sample-png.js';
export { sampleMp4 } from './sample-mp4.js';
export { taskPath } from './task-answer.js';
export { videoSynthesisPath } from './video-synthesis-answer.js';
export { moderationFailure } from './video-tasks.js';

/** Options of {@link startFakeDashScopeUpstream}. */
export interface FakeDashScopeUpstreamOptions {
  /** The one key accepted as `Authorization: Bearer <key>`. Default `dashscope-test-key`. */
  apiKey?: string;
}

/** A running fake DashScope upstream. */
export interface FakeDashScopeUpstream extends ScriptedFake<DashScopeBehaviour> {
  /** Every image the fake made, by the path of its URL (`new URL(url).pathname`). */
  results: ReadonlyMap<string, GeneratedImage>;
  /** Every video task the fake accepted, by `task_id`. */
  videoTasks: ReadonlyMap<string, FakeVideoTask>;
}

/** One API route: a method, a path pattern (its groups become `captures`), and the answer. */
interface RouteEntry {
  method: 'GET' | 'POST';
  path: RegExp;
  route: DashScopeRoute;
}

const exactly = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const routes: RouteEntry[] = [
  { method: 'POST', path: exactly(imageGenerationPath), route: imageGenerationRoute },
  { method: 'POST', path: exactly(videoSynthesisPath), route: videoSynthesisRoute },
  { method: 'GET', path: /^\/api\/v1\/tasks\/([^/]+)$/, route: taskRoute },
];

/**
 * Starts a fake DashScope upstream that speaks upstreams.md §4 byte for byte: compact JSON
 * bodies, `Authorization: Bearer <apiKey>` checked with DashScope's own `InvalidApiKey`
 * body, errors as `{request_id, code, message}`. It serves the sync image path
 * `POST /api/v1/services/aigc/multimodal-generation/generation` (§4.3) and the async video
 * tasks (§4.1, §4.2, §4.4): `POST /api/v1/services/aigc/video-generation/video-synthesis`
 * (only with `X-DashScope-Async: enable`) and `GET /api/v1/tasks/{task_id}`, each task moving
 * PENDING → RUNNING → SUCCEEDED one state per poll unless a behaviour scripts another end.
 * The image and video URLs it answers point back at it and serve a small real PNG or MP4
 * header to a plain GET, without a key, like a signed object-store link.
 * {@link DashScopeBehaviour} lists what tests can script per API request; downloads never
 * use one.
 */
export async function startFakeDashScopeUpstream(options: FakeDashScopeUpstreamOptions = {}): Promise<FakeDashScopeUpstream> {
  const apiKey = options.apiKey ?? 'dashscope-test-key';
  const queue: DashScopeBehaviour[] = [];
  const results = new ResultImages();
  const tasks = new VideoTasks();
  let origin = '';

  const server = await startFakeServer(async (exchange) => {
    const { request } = exchange;
    if (request.method === 'GET' && ResultImages.isResultPath(request.path)) return sendPieces(exchange, results.download(request.path), {});
    if (request.method === 'GET' && VideoTasks.isVideoPath(request.path)) return sendPieces(exchange, tasks.download(request.path), {});
    const behaviour = queue.shift() ?? {};
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const send = (answer: PiecewiseAnswer) => sendPieces(exchange, answer, behaviour);

    let match: { route: DashScopeRoute; captures: string[] } | undefined;
    for (const entry of routes) {
      const found = entry.method === request.method ? entry.path.exec(request.path) : null;
      if (found !== null) match = { route: entry.route, captures: found.slice(1) };
    }
    if (match === undefined) return send(jsonAnswer(404, dashScopeErrorBody(404, `The requested URL ${request.method} ${request.path} was not found.`, 'NotFound')));
    const authorization = headerValue(request.headers.authorization);
    if (authorization === undefined) return send(jsonAnswer(401, missingApiKeyBody()));
    if (authorization !== `Bearer ${apiKey}`) return send(jsonAnswer(401, dashScopeErrorBody(401)));

    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) return send(jsonAnswer(status, behaviour.body ?? dashScopeErrorBody(status, behaviour.message)));
    return send(match.route({ request, behaviour, origin, results, tasks, captures: match.captures }));
  });
  origin = server.url;

  return { ...scriptedFake(server, queue), results: results.all, videoTasks: tasks.all };
}
