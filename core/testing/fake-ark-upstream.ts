import { startFakeServer } from './fake-server.js';
import { playConnectionBehaviour, scriptedFake, type ScriptedFake } from './scripted-behaviour.js';
import { sendPieces } from './send-pieces.js';
import type { ArkBehaviour } from './fake-ark-upstream/ark-behaviour.js';
import { arkErrorBody, arkRequestId } from './fake-ark-upstream/ark-error-body.js';
import { arkJsonAnswer, headerValue, type ArkRoute } from './fake-ark-upstream/ark-wire.js';
import { GeneratedImages, generatedImagesPath } from './fake-ark-upstream/generated-images.js';
import { imagesGenerationsRoute } from './fake-ark-upstream/images-answer.js';

export type { RecordedRequest } from './fake-server.js';
export type { ArkBehaviour, ArkImagesUsage, ArkSensitiveKind } from './fake-ark-upstream/ark-behaviour.js';
export { arkErrorBody, arkInvalidParameterBody, arkSensitiveErrors, type ArkErrorBody } from './fake-ark-upstream/ark-error-body.js';
export { arkImageTokens } from './fake-ark-upstream/images-answer.js';
export { sampleJpeg, sampleJpegBase64 } from './fake-ark-upstream/sample-image.js';

/** Options of {@link startFakeArkUpstream}. */
export interface FakeArkUpstreamOptions {
  /** The one key accepted as `Authorization: Bearer <key>`. Default `ark-test-key`. */
  apiKey?: string;
  /** The models that exist; any other is a 404. Default: every model exists. */
  models?: readonly string[];
}

/** A running fake Ark upstream. */
export type FakeArkUpstream = ScriptedFake<ArkBehaviour>;

/** The runtime API's path prefix on both Ark sites (upstreams.md §3.1). */
const apiPrefix = '/api/v3';

/**
 * Starts a fake Volcengine Ark / BytePlus ModelArk runtime upstream speaking upstreams.md §3:
 * - `POST /api/v3/images/generations` (§3.2, Seedream): see `imagesGenerationsRoute`;
 * - `GET /ark-content-generation/...`: the images it made, as the pre-signed URLs it gave
 *   out (no key needed, like a signed TOS URL).
 * `/api/v3` routes want `Authorization: Bearer <apiKey>` and answer Ark's error bodies
 * (§3.1). Routes are one file each under `fake-ark-upstream/`, matched by method and path
 * pattern, so the video-task routes of §3.3–§3.4 can join the table. {@link ArkBehaviour}
 * lists what tests can script per request.
 */
export async function startFakeArkUpstream(options: FakeArkUpstreamOptions = {}): Promise<FakeArkUpstream> {
  const apiKey = options.apiKey ?? 'ark-test-key';
  const queue: ArkBehaviour[] = [];
  const images = new GeneratedImages();
  // Method, path pattern (its groups become `params`), route. The task routes of §3.3 will
  // need their `{id}` groups; the asset API of §3.5 is another host with AK/SK signing.
  const routes: Array<[string, RegExp, ArkRoute]> = [
    ['POST', new RegExp(`^${apiPrefix}/images/generations$`), imagesGenerationsRoute(options.models)],
  ];
  let origin = '';

  const server = await startFakeServer(async (exchange) => {
    const { request } = exchange;
    if (request.method === 'GET' && request.path.startsWith(generatedImagesPath)) return sendPieces(exchange, images.serve(request.path), {});
    const behaviour = queue.shift() ?? {};
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const requestId = arkRequestId();
    const send = (answer: ReturnType<ArkRoute>) => sendPieces(exchange, answer, behaviour);

    let route: ArkRoute | undefined;
    let params: string[] = [];
    for (const [method, pattern, candidate] of routes) {
      const match = method === request.method ? pattern.exec(request.path) : null;
      if (match === null) continue;
      route = candidate;
      params = match.slice(1).map((param) => decodeURIComponent(param));
      break;
    }
    if (route === undefined) {
      return send(arkJsonAnswer(404, arkErrorBody(404, { code: 'NotFound', message: `The requested path ${request.path} is not found.`, requestId }), requestId));
    }
    const authorization = headerValue(request.headers.authorization);
    if (authorization !== `Bearer ${apiKey}`) return send(arkJsonAnswer(401, arkErrorBody(401, { requestId }), requestId));
    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) {
      const body = behaviour.body ?? arkErrorBody(status, { message: behaviour.message, code: behaviour.code, param: behaviour.param, requestId });
      return send(arkJsonAnswer(status, body, requestId));
    }
    return send(route({ request, params, behaviour, requestId, origin, images }));
  });
  origin = server.url;

  return scriptedFake(server, queue);
}
