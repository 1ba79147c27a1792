import { playConnectionBehaviour, scriptedFake, sendPieces, startFakeServer, type FakeExchange, type PiecewiseAnswer, type RecordedRequest, type ScriptedFake } from '../../../core/testing/index.js';
import { contentText, embeddingValues } from './embed-answer.js';
import { answerGenerateContent } from './generate-answer.js';
import type { GxBehaviour } from './gx-behaviour.js';
import { gxErrorBody, invalidApiKeyBody, missingApiKeyBody } from './gx-error-body.js';
import { googleCompactJson, googlePrettyJson } from './google-json.js';

export type { RecordedRequest } from '../../../core/testing/index.js';
export type { GxBehaviour } from './gx-behaviour.js';
export type { GxRefusal } from './generate-answer.js';
export { tinyPngBase64 } from './sample-media.js';
export { googleCompactJson, googlePrettyJson } from './google-json.js';
export { gxErrorBody } from './gx-error-body.js';

/** Options of {@link startFakeGxUpstream}. */
export interface FakeGxUpstreamOptions {
  /** The one key accepted (`x-gx-api-key` header or `?key=`). Default `gx-test-key`. */
  apiKey?: string;
  /** Length of embedding vectors when the request sets no `outputDimensionality`. Default 8. */
  embeddingDimensions?: number;
  /** The models that exist; any other is a 404 `NOT_FOUND` in gx's words. Default: every model exists. */
  models?: readonly string[];
}

/** A running fake gx upstream. */
export type FakeGxUpstream = ScriptedFake<GxBehaviour>;

const jsonType = 'application/json; charset=UTF-8';
const modelRoute = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * Starts a fake gx (Generative Language v1beta) upstream that speaks the wire format of
 * upstreams.md §1 byte for byte: pretty JSON bodies, `data: <compact JSON>\r\n\r\n` SSE
 * events without `[DONE]`, cumulative usage on every event, finishReason only on the last,
 * gx's own error bodies. See {@link answerGenerateContent} for the default answers and
 * {@link GxBehaviour} for what tests can script.
 */
export async function startFakeGxUpstream(options: FakeGxUpstreamOptions = {}): Promise<FakeGxUpstream> {
  const apiKey = options.apiKey ?? 'gx-test-key';
  const embeddingDimensions = options.embeddingDimensions ?? 8;
  const queue: GxBehaviour[] = [];
  let responseCount = 0;

  const server = await startFakeServer(async (exchange) => {
    const behaviour = queue.shift() ?? {};
    const started = Date.now();
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const send = (answer: PiecewiseAnswer) => sendPieces(exchange, answer, behaviour);
    const json = (status: number, body: unknown) => send(jsonAnswer(status, body, started));
    const { request } = exchange;

    const route = modelRoute.exec(request.path);
    if (request.method !== 'POST' || route === null) {
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
    if (request.json === undefined) {
      return json(400, gxErrorBody(400, 'Invalid JSON payload received. Unexpected token.'));
    }

    const model = decodeURIComponent(route[1]!);
    const method = route[2]!;
    if (options.models !== undefined && !options.models.includes(model)) {
      return json(404, gxErrorBody(404, `models/${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`));
    }
    responseCount += 1;
    const responseId = Buffer.from(`gx-fake-response-${responseCount}`).toString('base64url');
    switch (method) {
      case 'generateContent':
      case 'streamGenerateContent': {
        if (!Array.isArray((request.json as { contents?: unknown }).contents)) {
          return json(400, gxErrorBody(400, '* GenerateContentRequest.contents: contents is not specified\n'));
        }
        if (method === 'generateContent') {
          if (behaviour.garbage === true) return send(textAnswer(200, 'this is not JSON {', started));
          return json(200, behaviour.json ?? answerGenerateContent(model, request.json, responseId, behaviour).response);
        }
        return send(streamAnswer(exchange, behaviour, model, responseId, started));
      }
      case 'embedContent':
        return json(...embedContent(request.json, embeddingDimensions));
      case 'batchEmbedContents':
        return json(...batchEmbedContents(model, request.json, embeddingDimensions));
      default:
        return json(404, gxErrorBody(404, `Method not found: ${method}`));
    }
  });

  return scriptedFake(server, queue);
}

/** The headers gx sends with every answer (upstreams.md §1.1, js-genai recordings). */
function gxHeaders(contentType: string, started: number): Record<string, string> {
  return {
    'content-type': contentType,
    vary: 'Origin, X-Origin, Referer',
    server: 'scaffolding on HTTPServer2',
    'x-content-type-options': 'nosniff',
    'server-timing': `gfet4t7; dur=${Date.now() - started}`,
  };
}

function jsonAnswer(status: number, body: unknown, started: number): PiecewiseAnswer {
  return textAnswer(status, googlePrettyJson(body), started);
}

/** A whole body with its length, as a non-stream answer goes out. */
function textAnswer(status: number, text: string, started: number): PiecewiseAnswer {
  const headers = { ...gxHeaders(jsonType, started), 'content-length': String(Buffer.byteLength(text)) };
  return { status, headers, pieces: [text], streamed: false };
}

function streamAnswer(exchange: FakeExchange, behaviour: GxBehaviour, model: string, responseId: string, started: number): PiecewiseAnswer {
  const sse = exchange.request.query.alt === 'sse';
  const headers = sse ? { ...gxHeaders('text/event-stream', started), 'content-disposition': 'attachment' } : gxHeaders(jsonType, started);
  if (behaviour.rawSse !== undefined) return { status: 200, headers, pieces: rawPieces(behaviour.rawSse), streamed: true };
  if (behaviour.garbage === true) return { status: 200, headers, pieces: [sse ? 'data: this is not JSON {\r\n\r\n' : '[this is not JSON {'], streamed: true };

  let events: unknown[];
  if (behaviour.sseErrorBeforeContent !== undefined && behaviour.sseErrorBeforeContent !== false) {
    const code = behaviour.sseErrorBeforeContent === true ? 503 : behaviour.sseErrorBeforeContent;
    events = [gxErrorBody(code, behaviour.message)];
  } else {
    events = behaviour.chunks ?? (behaviour.json !== undefined ? [behaviour.json] : answerGenerateContent(model, exchange.request.json, responseId, behaviour).chunks);
  }
  if (sse) return { status: 200, headers, pieces: events.map((event) => `data: ${googleCompactJson(event)}\r\n\r\n`), streamed: true };
  // Without alt=sse the stream is one JSON array of pretty objects, elements separated by
  // "\n,\r\n" (louter test-data README; the separator as other gx clients split on it).
  const pretty = events.map((event) => googlePrettyJson(event).trimEnd());
  const pieces = pretty.map((event, index) => (index === 0 ? `[${event}` : `\n,\r\n${event}`));
  if (pieces.length === 0) return { status: 200, headers, pieces: ['[]'], streamed: true };
  pieces[pieces.length - 1] += '\n]';
  return { status: 200, headers, pieces, streamed: true };
}

/** A string is cut after each blank line so each event is its own chunk; bytes stay exact. */
function rawPieces(raw: string | Uint8Array | Array<string | Uint8Array>): Array<string | Uint8Array> {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return [raw];
  return raw.split(/(?<=\r\n\r\n|\n\n|\r\r)/).filter((piece) => piece !== '');
}

function embedContent(body: unknown, dimensions: number): [number, unknown] {
  const request = body as { content?: unknown; outputDimensionality?: unknown };
  const text = contentText(request.content);
  if (text === undefined) return [400, gxErrorBody(400, '* EmbedContentRequest.content: content is not specified\n')];
  return [200, { embedding: { values: embeddingValues(text, dimensionsOf(request, dimensions)) } }];
}

function batchEmbedContents(model: string, body: unknown, dimensions: number): [number, unknown] {
  const requests = (body as { requests?: unknown }).requests;
  if (!Array.isArray(requests) || requests.length === 0) {
    return [400, gxErrorBody(400, '* BatchEmbedContentsRequest.requests: requests is not specified\n')];
  }
  const embeddings: unknown[] = [];
  for (const [index, entry] of requests.entries()) {
    const request = (entry ?? {}) as { model?: unknown; content?: unknown; outputDimensionality?: unknown };
    // Each request's model must name the model of the URL (upstreams.md §1.9).
    if (request.model !== undefined && request.model !== `models/${model}`) {
      return [400, gxErrorBody(400, `Model name in request ${index} (${String(request.model)}) does not match the URL model models/${model}.`)];
    }
    const text = contentText(request.content);
    if (text === undefined) return [400, gxErrorBody(400, `* BatchEmbedContentsRequest.requests[${index}].content: content is not specified\n`)];
    embeddings.push({ values: embeddingValues(text, dimensionsOf(request, dimensions)) });
  }
  return [200, { embeddings }];
}

const dimensionsOf = (request: { outputDimensionality?: unknown }, fallback: number): number =>
  typeof request.outputDimensionality === 'number' && request.outputDimensionality > 0 ? Math.floor(request.outputDimensionality) : fallback;

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
