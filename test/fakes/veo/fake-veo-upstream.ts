import { playConnectionBehaviour, scriptedFake, sendPieces, startFakeServer, type PiecewiseAnswer, type RecordedRequest, type ScriptedFake } from '../../../core/testing/index.js';
import { gxErrorBody, invalidApiKeyBody, missingApiKeyBody } from '../gx/gx-error-body.js';
import type { VeoBehaviour, VeoTaskScript } from './veo-behaviour.js';
import { VeoOperations } from './veo-operations.js';
import { VeoStorage } from './veo-storage.js';
import { veoSubmitProblem } from './veo-submit-check.js';
import { headerValue, jsonAnswer, redirectAnswer, textAnswer } from './veo-wire.js';

export type { RecordedRequest } from '../../../core/testing/index.js';
export type { VeoBehaviour, VeoTaskScript } from './veo-behaviour.js';
export { predictLongRunningResponseType } from './veo-operations.js';
export { sampleMp4 } from './sample-mp4.js';

/** Options of {@link startFakeVeoUpstream}. */
export interface FakeVeoUpstreamOptions {
  /** The one key accepted (`x-gx-api-key` header or `?key=`). Default `veo-test-key`. */
  apiKey?: string;
  /**
   * The host name of the storage host's signed addresses instead of 127.0.0.1, e.g.
   * `localhost`: a test can then allow that one name in `security.media.allow_hosts` while
   * every other loopback address stays refused.
   */
  storageHost?: string;
  /** The models that exist; a task submitted for another is a 404 `NOT_FOUND` in Google's words. Default: every model exists. */
  models?: readonly string[];
}

/** A running fake Veo upstream. */
export interface FakeVeoUpstream extends ScriptedFake<VeoBehaviour> {
  /** The storage host's origin, where downloads redirect to. */
  storageUrl: string;
  /** Every request the storage host received, in order. */
  storageRequests: RecordedRequest[];
  /** Scripts the next submitted task (otherwise: two pending polls, then one video per requested sample). */
  nextTask(script: VeoTaskScript): void;
}

const submitRoute = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/;
const operationRoute = /^\/v1beta\/(models\/[^/:]+\/operations\/[^/:]+)$/;
const downloadRoute = /^\/v1beta\/files\/([^/:]+):download$/;

/**
 * Starts a fake Veo upstream on the Gemini API's long-running operations, byte for byte as
 * upstreams.md §1.10–§1.11 and fixture gemini-veo-operation.json describe them, with the
 * spec's neutral key header:
 * - `POST /v1beta/models/{model}:predictLongRunning` checks the body ({@link veoSubmitProblem})
 *   and answers `{name: "models/{model}/operations/{id}"}`;
 * - `GET /v1beta/{name}` moves the task one step per poll ({@link VeoTaskScript}): `{name}`,
 *   then `done: false`, then its outcome, which later polls repeat;
 * - `GET /v1beta/files/{id}:download?alt=media` answers 302 to a signed address on a second
 *   fake origin that serves the mp4 without any key (or to the behaviour's `redirectTo`).
 * Every API route needs the key (`x-gx-api-key` or `?key=`): none is a 403 PERMISSION_DENIED,
 * a wrong one the upstream's 400 INVALID_ARGUMENT with `API_KEY_INVALID` (upstreams.md §6).
 * Errors are `{error: {code, message, status}}`, pretty-printed. {@link VeoBehaviour} lists
 * what tests can script per API request.
 */
export async function startFakeVeoUpstream(options: FakeVeoUpstreamOptions = {}): Promise<FakeVeoUpstream> {
  const apiKey = options.apiKey ?? 'veo-test-key';
  const queue: VeoBehaviour[] = [];
  const scripts: VeoTaskScript[] = [];
  const operations = new VeoOperations();
  const storage = await VeoStorage.start(options.storageHost);
  let origin = '';

  const server = await startFakeServer(async (exchange) => {
    const behaviour = queue.shift() ?? {};
    const started = Date.now();
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const send = (answer: PiecewiseAnswer) => sendPieces(exchange, answer, behaviour);
    const json = (status: number, body: unknown) => send(jsonAnswer(status, body, started));
    const { request } = exchange;

    const submit = request.method === 'POST' ? submitRoute.exec(request.path) : null;
    const operation = request.method === 'GET' ? operationRoute.exec(request.path) : null;
    const download = request.method === 'GET' ? downloadRoute.exec(request.path) : null;
    if (submit === null && operation === null && download === null) {
      return json(404, gxErrorBody(404, `Method not found: ${request.method} ${request.path}`));
    }
    const key = headerValue(request.headers['x-gx-api-key']) ?? request.query.key;
    if (key === undefined) return json(403, missingApiKeyBody());
    if (key !== apiKey) return json(400, invalidApiKeyBody());

    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) {
      const body = behaviour.body ?? gxErrorBody(status, behaviour.message);
      return send(typeof body === 'string' ? textAnswer(status, body, started) : jsonAnswer(status, body, started));
    }
    if (behaviour.garbage === true) return send(textAnswer(200, 'this is not JSON {', started));

    if (submit !== null) {
      const model = decodeURIComponent(submit[1]!);
      if (options.models !== undefined && !options.models.includes(model)) {
        return json(404, gxErrorBody(404, `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning. Call ListModels to see the list of available models and their supported methods.`));
      }
      const problem = veoSubmitProblem(request.json);
      if (problem !== undefined) return json(400, gxErrorBody(400, problem));
      const parameters = (request.json as { parameters?: { sampleCount?: number } }).parameters;
      const name = operations.submit(model, parameters?.sampleCount ?? 1, scripts.shift() ?? {});
      return json(200, { name });
    }
    if (operation !== null) {
      const answer = operations.poll(operation[1]!, origin);
      return answer.status === 404 ? json(404, gxErrorBody(404)) : json(200, answer.body);
    }
    const fileId = download![1]!;
    if (operations.fileTask(fileId) === undefined) return json(404, gxErrorBody(404));
    if (request.query.alt !== 'media') return json(400, gxErrorBody(400, 'Only media downloads are supported: add alt=media.'));
    return send(redirectAnswer(behaviour.redirectTo ?? storage.signedAddress(fileId), started));
  });
  origin = server.url;

  const handle = scriptedFake(server, queue);
  return {
    ...handle,
    storageUrl: storage.origin,
    storageRequests: storage.server.requests,
    nextTask: (script) => void scripts.push(script),
    reset: () => {
      handle.reset();
      scripts.length = 0;
      storage.server.requests.length = 0;
    },
    close: async () => {
      await Promise.all([server.close(), storage.server.close()]);
    },
  };
}
