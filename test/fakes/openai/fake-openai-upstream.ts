import { playConnectionBehaviour, scriptedFake, sendPieces, startFakeServer, type RecordedRequest, type ScriptedFake } from '../../../core/testing/index.js';
import { chatCompletionsRoute } from './chat-answer.js';
import type { OpenAiBehaviour } from './openai-behaviour.js';
import { openAiErrorBody } from './openai-error-body.js';
import { imagesRoute } from './images-answer.js';
import { headerValue, jsonAnswer, type OpenAiRoute } from './openai-wire.js';
import { responsesRoute } from './responses-answer.js';
import { speechRoute } from './speech-answer.js';
import { transcriptionRoute } from './transcription-answer.js';
import { videosRoutes } from './videos-routes.js';

export type { RecordedRequest } from '../../../core/testing/index.js';
export type {
  OpenAiBehaviour,
  OpenAiUsage,
  ResponsesStreamError,
  ResponsesStreamErrorKind,
  ResponsesUsage,
  ScriptedFunctionCall,
  SpeechUsage,
  TranscriptionUsage,
} from './openai-behaviour.js';
export { openAiErrorBody } from './openai-error-body.js';
export { responseObject, type ResponseObjectParts, type ResponsesAnswerPlan } from './responses-object.js';
export { frameResponseEvent, numberEvents, type ResponseEvent } from './responses-stream.js';
export { speechAudio, speechContentTypes, speechSeconds, type SpeechFormat } from './speech-audio.js';
export { defaultTranscriptionSeconds } from './transcription-answer.js';
export { pcmTone, wavDurationSeconds, wavFile } from './wav-audio.js';
export { videoBehaviours, type VideoBehaviour, type VideoError, type VideoScript, type VideoStep } from './videos-behaviour.js';
export { fakeMp4 } from './videos-content.js';

/** Options of {@link startFakeOpenAiUpstream}. */
export interface FakeOpenAiUpstreamOptions {
  /** The one key accepted as `Authorization: Bearer <key>`. Default `openai-test-key`. */
  apiKey?: string;
  /** The models that exist; a request naming another (JSON or multipart `model`) is a 404 `model_not_found`. Default: every model exists. */
  models?: readonly string[];
}

/** The `model` a request names: its JSON body's, or the multipart field's. */
function requestedModel(request: RecordedRequest): string | undefined {
  const json = request.json as { model?: unknown } | undefined;
  if (typeof json?.model === 'string') return json.model;
  return /name="model"\r\n\r\n([^\r]*)\r\n/.exec(request.text)?.[1];
}

/** A running fake OpenAI upstream. */
export interface FakeOpenAiUpstream extends ScriptedFake<OpenAiBehaviour> {
  /** Every Response object the Responses route produced, by id; a `previous_response_id` must name one of them. */
  storedResponses: ReadonlyMap<string, Record<string, unknown>>;
}

/**
 * Starts a fake OpenAI upstream that speaks the wire formats of upstreams.md §2 byte for byte:
 * - `POST /v1/chat/completions` (§2.4): pretty JSON, `data:`-only events ending in `[DONE]`;
 * - `POST /v1/responses` (§2.2–2.3): the full Response object, or `event:` + `data:` events
 *   numbered from 0 without `[DONE]`, `previous_response_id` checked against what it produced;
 * - `POST /v1/audio/speech` (§2.5): chunked audio bytes typed by format, or SSE deltas;
 * - `POST /v1/audio/transcriptions` and `/v1/audio/translations` (§2.6): multipart uploads
 *   answered as json, text, srt, vtt, verbose_json or diarized_json;
 * - `/v1/videos` and `/v1/videos/{id}[/content|/remix]` (§2.9): see `videosRoutes`.
 * Every route wants `Authorization: Bearer <apiKey>` and answers OpenAI's error bodies (§2.1).
 * {@link OpenAiBehaviour} lists what tests can script per request.
 */
export async function startFakeOpenAiUpstream(options: FakeOpenAiUpstreamOptions = {}): Promise<FakeOpenAiUpstream> {
  const apiKey = options.apiKey ?? 'openai-test-key';
  const queue: OpenAiBehaviour[] = [];
  const storedResponses = new Map<string, Record<string, unknown>>();
  const videos = videosRoutes();
  const routes: Record<string, OpenAiRoute> = {
    '/v1/chat/completions': chatCompletionsRoute(),
    '/v1/responses': responsesRoute(storedResponses),
    '/v1/audio/speech': speechRoute,
    '/v1/audio/transcriptions': transcriptionRoute('transcribe'),
    '/v1/audio/translations': transcriptionRoute('translate'),
    '/v1/images/generations': imagesRoute('generations'),
    '/v1/images/edits': imagesRoute('edits'),
    '/v1/videos': videos.create,
  };

  const server = await startFakeServer(async (exchange) => {
    const behaviour = queue.shift() ?? {};
    const started = Date.now();
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const { request } = exchange;
    const send = async (answer: ReturnType<OpenAiRoute>) => sendPieces(exchange, await answer, behaviour);

    const route = (request.method === 'POST' ? routes[request.path] : undefined) ?? videos.routeFor(request);
    if (route === undefined) return send(jsonAnswer(404, openAiErrorBody(404, `Invalid URL (${request.method} ${request.path})`), started));
    const authorization = headerValue(request.headers.authorization);
    if (authorization !== `Bearer ${apiKey}`) {
      return send(jsonAnswer(401, openAiErrorBody(401, authorization === undefined ? "You didn't provide an API key." : undefined), started));
    }
    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) return send(jsonAnswer(status, behaviour.body ?? openAiErrorBody(status, behaviour.message), started));
    const model = requestedModel(request);
    if (options.models !== undefined && model !== undefined && !options.models.includes(model)) {
      return send(jsonAnswer(404, openAiErrorBody(404, `The model \`${model}\` does not exist or you do not have access to it.`), started));
    }
    return send(route({ request, behaviour, started }));
  });

  return { ...scriptedFake(server, queue), storedResponses };
}
