import { randomBytes } from 'node:crypto';
import { startFakeServer, type RecordedRequest } from './fake-server.js';
import { playConnectionBehaviour, scriptedFake, type ScriptedFake, type ScriptedBehaviour } from './scripted-behaviour.js';
import { sendPieces, type PiecewiseAnswer } from './send-pieces.js';

export type { RecordedRequest } from './fake-server.js';

/** OpenAI's usage object (upstreams.md §2.4). */
export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

/**
 * How the fake answers the next request instead of its default. Fields combine (for example
 * `chunkDelayMs` with `rawSse`). "Chunks" are the pieces the answer is written in: one SSE
 * event, one entry of a `rawSse` array, or the whole body of a JSON answer.
 */
export interface OpenAiBehaviour extends ScriptedBehaviour {
  /** The answer's text instead of `echo: <last user text>`. */
  text?: string;
  /** The usage to report instead of the fake's own count. */
  usage?: OpenAiUsage;
  /** Send this as the non-stream answer (pretty JSON). */
  json?: unknown;
  /** Send these objects as the stream's events (compact JSON), followed by `[DONE]`. */
  chunks?: unknown[];
  /** Send these exact bytes as a stream body; a string is written one event at a time. */
  rawSse?: string | Uint8Array | Array<string | Uint8Array>;
  /** The first event of a 200 stream is `{"error": ...}` (`true` = a server_error, or the HTTP status whose error it is). */
  sseErrorBeforeContent?: boolean | number;
}

/** Options of {@link startFakeOpenAiUpstream}. */
export interface FakeOpenAiUpstreamOptions {
  /** The one key accepted as `Authorization: Bearer <key>`. Default `openai-test-key`. */
  apiKey?: string;
}

/** A running fake OpenAI chat upstream. */
export type FakeOpenAiUpstream = ScriptedFake<OpenAiBehaviour>;

const errorKinds: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again in 1s.' },
};

/** OpenAI's error body for `status` (upstreams.md §2.1): all four keys, always present. */
export function openAiErrorBody(status: number, message?: string, param: string | null = null): { error: Record<string, unknown> } {
  const kind = errorKinds[status] ?? { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' };
  return { error: { message: message ?? kind.message, type: kind.type, param, code: kind.code } };
}

/** Pretty JSON with a two-space indent, as OpenAI sends a non-stream body. */
const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * Starts a fake OpenAI upstream for `POST /v1/chat/completions` that speaks the wire format
 * of upstreams.md §2.4 byte for byte: pretty JSON bodies, `data: <compact JSON>\n\n` events
 * without `event:` lines, `data: [DONE]\n\n` at the end, `usage: null` on every chunk and a
 * last `choices: []` usage chunk when `stream_options.include_usage` is set, and OpenAI's
 * error bodies (§2.1). The default answer echoes the last user text as `echo: <text>`.
 */
export async function startFakeOpenAiUpstream(options: FakeOpenAiUpstreamOptions = {}): Promise<FakeOpenAiUpstream> {
  const apiKey = options.apiKey ?? 'openai-test-key';
  const queue: OpenAiBehaviour[] = [];
  let responseCount = 0;

  const server = await startFakeServer(async (exchange) => {
    const behaviour = queue.shift() ?? {};
    const started = Date.now();
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    const send = (answer: PiecewiseAnswer) => sendPieces(exchange, answer, behaviour);
    const json = (status: number, body: unknown) => send(textAnswer(status, typeof body === 'string' ? body : prettyJson(body), started));
    const { request } = exchange;

    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return json(404, openAiErrorBody(404, `Invalid URL (${request.method} ${request.path})`));
    }
    const authorization = headerValue(request.headers.authorization);
    if (authorization !== `Bearer ${apiKey}`) {
      return json(401, openAiErrorBody(401, authorization === undefined ? "You didn't provide an API key." : undefined));
    }
    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) return json(status, behaviour.body ?? openAiErrorBody(status, behaviour.message));

    const body = request.json as ChatRequest | undefined;
    if (typeof body !== 'object' || body === null) {
      return json(400, openAiErrorBody(400, 'We could not parse the JSON body of your request.'));
    }
    if (typeof body.model !== 'string') return json(400, openAiErrorBody(400, 'you must provide a model parameter', 'model'));
    if (!Array.isArray(body.messages)) return json(400, openAiErrorBody(400, "Missing required parameter: 'messages'.", 'messages'));

    responseCount += 1;
    const id = `chatcmpl-fake${String(responseCount).padStart(6, '0')}`;
    const created = Math.floor(Date.now() / 1000);
    const text = behaviour.text ?? `echo: ${lastUserText(body.messages)}`;
    const usage = behaviour.usage ?? countUsage(body.messages, text);
    if (body.stream !== true) return json(200, behaviour.json ?? completion(id, created, body.model, text, usage));
    return send(streamAnswer(behaviour, { id, created, model: body.model, text, usage, includeUsage: body.stream_options?.include_usage === true }, started));
  });

  return scriptedFake(server, queue);
}

interface ChatRequest {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
}

/** What the default answer is made of. */
interface AnswerParts {
  id: string;
  created: number;
  model: string;
  text: string;
  usage: OpenAiUsage;
  includeUsage: boolean;
}

/** The headers OpenAI sends with every answer (upstreams.md §2.1). */
function openAiHeaders(contentType: string, started: number): Record<string, string> {
  return {
    'content-type': contentType,
    'openai-processing-ms': String(Date.now() - started),
    'openai-version': '2020-10-01',
    'x-request-id': `req_${randomBytes(16).toString('hex')}`,
  };
}

function textAnswer(status: number, text: string, started: number): PiecewiseAnswer {
  const headers = { ...openAiHeaders('application/json', started), 'content-length': String(Buffer.byteLength(text)) };
  return { status, headers, pieces: [text], streamed: false };
}

const event = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const doneEvent = 'data: [DONE]\n\n';

function streamAnswer(behaviour: OpenAiBehaviour, parts: AnswerParts, started: number): PiecewiseAnswer {
  const headers = openAiHeaders('text/event-stream; charset=utf-8', started);
  if (behaviour.rawSse !== undefined) return { status: 200, headers, pieces: rawPieces(behaviour.rawSse), streamed: true };
  if (behaviour.sseErrorBeforeContent !== undefined && behaviour.sseErrorBeforeContent !== false) {
    const status = behaviour.sseErrorBeforeContent === true ? 500 : behaviour.sseErrorBeforeContent;
    return { status: 200, headers, pieces: [event(openAiErrorBody(status, behaviour.message))], streamed: true };
  }
  if (behaviour.chunks !== undefined) return { status: 200, headers, pieces: [...behaviour.chunks.map(event), doneEvent], streamed: true };

  const chunk = (choices: unknown[], usage?: OpenAiUsage) => ({
    id: parts.id,
    object: 'chat.completion.chunk',
    created: parts.created,
    model: parts.model,
    service_tier: 'default',
    system_fingerprint: 'fp_fake0000',
    choices,
    ...(parts.includeUsage ? { usage: usage ?? null } : {}),
    obfuscation: randomBytes(4).toString('base64url'),
  });
  const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finishReason });
  const words = parts.text.match(/\S+\s*|\s+/g) ?? [];
  const pieces = [
    event(chunk([choice({ role: 'assistant', content: '', refusal: null })])),
    ...words.map((word) => event(chunk([choice({ content: word })]))),
    event(chunk([choice({}, 'stop')])),
  ];
  if (parts.includeUsage) pieces.push(event(chunk([], parts.usage)));
  pieces.push(doneEvent);
  return { status: 200, headers, pieces, streamed: true };
}

function completion(id: string, created: number, model: string, text: string, usage: OpenAiUsage): unknown {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage,
    service_tier: 'default',
    system_fingerprint: 'fp_fake0000',
  };
}

/** A deterministic stand-in for a tokenizer: one token per word, plus three per message. */
function countUsage(messages: unknown[], answer: string): OpenAiUsage {
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
  const prompt = messages.reduce<number>((total, message) => total + 3 + words(messageText(message)), 0);
  const completionTokens = Math.max(1, words(answer));
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function messageText(message: unknown): string {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ((part as { type?: unknown; text?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : '')).join(' ');
}

function lastUserText(messages: unknown[]): string {
  const user = messages.filter((message) => (message as { role?: unknown } | null)?.role === 'user').at(-1);
  return user === undefined ? '' : messageText(user);
}

/** A string is cut after each blank line so each event is its own chunk; bytes stay exact. */
function rawPieces(raw: string | Uint8Array | Array<string | Uint8Array>): Array<string | Uint8Array> {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return [raw];
  return raw.split(/(?<=\r\n\r\n|\n\n|\r\r)/).filter((piece) => piece !== '');
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
