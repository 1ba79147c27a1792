import { playConnectionBehaviour, scriptedFake, sendPieces, startFakeServer, type ScriptedFake } from '../../../core/testing/index.js';
import type { ArkBehaviour } from './ark-behaviour.js';
import { arkErrorBody, arkRequestId } from './ark-error-body.js';
import { arkJsonAnswer, headerValue, type ArkRoute } from './ark-wire.js';
import { GeneratedImages, generatedImagesPath } from './generated-images.js';
import { imagesGenerationsRoute } from './images-answer.js';
import { createVideoTaskRoute, getVideoTaskRoute, videoTasksPath } from './video-task-routes.js';
import { ArkVideoTasks, type FakeArkTask } from './video-tasks.js';
import { assetApiRoute } from './asset-api-route.js';
import { ArkAssetLibrary } from './asset-library.js';

export type { RecordedRequest } from '../../../core/testing/index.js';
export type { ArkBehaviour, ArkImagesUsage, ArkSensitiveKind, ArkTaskOutcome } from './ark-behaviour.js';
export type { ArkTaskStatus, FakeArkTask } from './video-tasks.js';
export { arkVideoTokens, generatedVideosPath } from './video-tasks.js';
export { sampleVideo } from './sample-video.js';
export { ArkAssetLibrary, type FakeArkAsset, type FakeArkAssetGroup, type FakeArkValidationSession } from './asset-library.js';
export { volcApiVersion } from './asset-api-route.js';
export { arkErrorBody, arkInvalidParameterBody, arkSensitiveErrors, type ArkErrorBody } from './ark-error-body.js';
export { arkImageTokens } from './images-answer.js';
export { sampleJpeg, sampleJpegBase64 } from './sample-image.js';

/** Options of {@link startFakeArkUpstream}. */
export interface FakeArkUpstreamOptions {
  /** The one key accepted as `Authorization: Bearer <key>`. Default `ark-test-key`. */
  apiKey?: string;
  /** The models that exist; any other is a 404. Default: every model exists. */
  models?: readonly string[];
  /** The access key pair the asset API accepts (upstreams.md §3.5). Default `ark-test-ak` / `ark-test-sk`. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /**
   * The host name of the addresses it gives out (videos, images, last frames) instead of
   * 127.0.0.1, e.g. `localhost`: a test can then allow that one name in
   * `security.media.allow_hosts` while every other loopback address stays refused.
   */
  addressHost?: string;
}

/** A running fake Ark upstream. */
export interface FakeArkUpstream extends ScriptedFake<ArkBehaviour> {
  /** The origin of the addresses it gives out: its own, under `addressHost` when one is set. */
  addressOrigin: string;
  /** The video tasks it holds, by id (upstreams.md §3.3). */
  tasks: ReadonlyMap<string, FakeArkTask>;
  /** Makes the upstream forget a task: every later GET of it is a 404. */
  forgetTask(id: string): void;
  /** The asset library behind the asset API: its groups, assets and validation sessions. */
  assets: ArkAssetLibrary;
  /** Passes a face validation session as the person at its page would; answers the `LivenessFace` group it made. */
  passValidation(bytedToken: string): string;
}

/** The runtime API's path prefix on both Ark sites (upstreams.md §3.1). */
const apiPrefix = '/api/v3';

/**
 * Starts a fake Volcengine Ark / BytePlus ModelArk runtime upstream speaking upstreams.md §3:
 * - `POST /api/v3/images/generations` (§3.2, Seedream): see `imagesGenerationsRoute`;
 * - `POST /api/v3/contents/generations/tasks` and `GET .../tasks/{id}` (§3.3–§3.4,
 *   Seedance): see `createVideoTaskRoute` and `getVideoTaskRoute`; each GET moves a task one
 *   state on (queued → running → its end), and the create's behaviour picks the end;
 * - `GET /ark-content-generation/...`: the images it made, as the pre-signed URLs it gave
 *   out (no key needed, like a signed TOS URL), and under `/ark-content-generation-video/`
 *   the mp4 of each task that succeeded;
 * - `POST /?Action=...&Version=2024-01-01` (§3.5): the asset library API, signed with an
 *   access key pair and answering in its own `ResponseMetadata` / `Result` envelope; see
 *   `assetApiRoute`. Assets go `Processing` → `Active` over `GetAsset` reads, and a task
 *   create checks its `asset://` references against the library;
 * - `GET /visual-validate/h5`: the face validation page a session links to (a stub).
 * `/api/v3` routes want `Authorization: Bearer <apiKey>` and answer Ark's error bodies
 * (§3.1). Routes are one file each beside this one, matched by method and path
 * pattern. {@link ArkBehaviour} lists what tests can script per request.
 */
export async function startFakeArkUpstream(options: FakeArkUpstreamOptions = {}): Promise<FakeArkUpstream> {
  const apiKey = options.apiKey ?? 'ark-test-key';
  const queue: ArkBehaviour[] = [];
  const images = new GeneratedImages();
  const tasks = new ArkVideoTasks();
  const library = new ArkAssetLibrary();
  const keys = { accessKeyId: options.accessKeyId ?? 'ark-test-ak', secretAccessKey: options.secretAccessKey ?? 'ark-test-sk' };
  // Method, path pattern (its groups become `params`), route, and how it is authorised: the
  // runtime's Bearer key, or the asset API's signature (checked by its route).
  const routes: Array<[string, RegExp, ArkRoute, 'bearer' | 'signed']> = [
    ['POST', new RegExp(`^${apiPrefix}/images/generations$`), imagesGenerationsRoute(options.models), 'bearer'],
    ['POST', new RegExp(`^${apiPrefix}${videoTasksPath}$`), createVideoTaskRoute(tasks, options.models, (plan, requestId) => library.checkTaskAssets(plan, requestId)), 'bearer'],
    ['GET', new RegExp(`^${apiPrefix}${videoTasksPath}/([^/]+)$`), getVideoTaskRoute(tasks), 'bearer'],
    ['POST', /^\/$/, assetApiRoute(library, keys), 'signed'],
  ];
  let origin = '';

  const server = await startFakeServer(async (exchange) => {
    const { request } = exchange;
    if (request.method === 'GET' && ArkVideoTasks.isVideoPath(request.path)) return sendPieces(exchange, tasks.serve(request.path), {});
    if (request.method === 'GET' && request.path.startsWith(generatedImagesPath)) return sendPieces(exchange, images.serve(request.path), {});
    if (request.method === 'GET' && request.path === '/visual-validate/h5') {
      const page = '<!doctype html><title>Face validation</title><p>Fake face validation page.</p>';
      return sendPieces(exchange, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-length': String(page.length) }, pieces: [page], streamed: false }, {});
    }
    const behaviour = queue.shift() ?? {};
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const requestId = arkRequestId();
    const send = (answer: ReturnType<ArkRoute>) => sendPieces(exchange, answer, behaviour);

    let route: ArkRoute | undefined;
    let authorisation: 'bearer' | 'signed' = 'bearer';
    let params: string[] = [];
    for (const [method, pattern, candidate, kind] of routes) {
      const match = method === request.method ? pattern.exec(request.path) : null;
      if (match === null) continue;
      route = candidate;
      authorisation = kind;
      params = match.slice(1).map((param) => decodeURIComponent(param));
      break;
    }
    if (route === undefined) {
      return send(arkJsonAnswer(404, arkErrorBody(404, { code: 'NotFound', message: `The requested path ${request.path} is not found.`, requestId }), requestId));
    }
    if (authorisation === 'signed') return send(route({ request, params, behaviour, requestId, origin, images }));
    const authorization = headerValue(request.headers.authorization);
    if (authorization !== `Bearer ${apiKey}`) return send(arkJsonAnswer(401, arkErrorBody(401, { requestId }), requestId));
    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) {
      const body = behaviour.body ?? arkErrorBody(status, { message: behaviour.message, code: behaviour.code, param: behaviour.param, requestId });
      return send(arkJsonAnswer(status, body, requestId));
    }
    return send(route({ request, params, behaviour, requestId, origin, images }));
  });
  origin = options.addressHost === undefined ? server.url : `http://${options.addressHost}:${new URL(server.url).port}`;

  return {
    ...scriptedFake(server, queue),
    addressOrigin: origin,
    tasks: tasks.all,
    forgetTask: (id) => tasks.forget(id),
    assets: library,
    passValidation: (bytedToken) => library.passValidation(bytedToken),
  };
}
