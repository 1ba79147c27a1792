import { sendPieces, startFakeServer, type FakeServer, type PiecewiseAnswer, type RecordedRequest } from '../../../core/testing/index.js';
import { responsesRoute } from '../../fakes/openai/responses-answer.js';
import { anthropicCountTokensAnswer, anthropicMessagesAnswer } from './anthropic-messages-answer.js';
import { googleGenerateAnswer } from './google-generate-answer.js';
import { openAiChatAnswer } from './openai-chat-answer.js';
import { isObject, objects, recorderTurn, type RecorderScript } from './recorder-turn.js';

/** A running recorder: every request it received, and how to stop it. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const nativeRoute = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * Starts the recorder the agent fixtures are made with: a loopback HTTP server that keeps
 * every request and answers the four formats the coding agents speak (Messages, Responses,
 * chat completions, native generate) as `script` says, so an agent takes one tool round trip
 * and finishes. Anything else is a 404, recorded like the rest.
 */
export async function startRecordingServer(script: RecorderScript): Promise<RecordingServer> {
  // The fake OpenAI upstream's Responses route writes the Responses stream; the recorder
  // only chooses, per request, between its text answer and a function call.
  const responses = responsesRoute(new Map());
  const server: FakeServer = await startFakeServer(async (exchange) => {
    const { request } = exchange;
    const answer = await answerFor(request, script, responses);
    await sendPieces(exchange, answer, {});
  });
  return { url: server.url, requests: server.requests, close: () => server.close() };
}

async function answerFor(request: RecordedRequest, script: RecorderScript, responses: ReturnType<typeof responsesRoute>): Promise<PiecewiseAnswer> {
  const path = request.path.replace(/\/+$/, '');
  if (request.method === 'POST' && path.endsWith('/v1/messages/count_tokens')) return anthropicCountTokensAnswer(request.json);
  if (request.method === 'POST' && path.endsWith('/v1/messages')) return anthropicMessagesAnswer(request.json, script);
  if (request.method === 'POST' && path.endsWith('/v1/chat/completions')) return openAiChatAnswer(request.json, script);
  if (request.method === 'POST' && path.endsWith('/v1/responses')) {
    const body = isObject(request.json) ? request.json : {};
    const input = Array.isArray(body.input) ? objects(body.input) : [];
    const turn = recorderTurn(
      script,
      objects(body.tools).map((tool) => String(tool.name)),
      input.some((item) => typeof item.type === 'string' && item.type.endsWith('_call_output')),
    );
    const behaviour = turn.kind === 'text' ? { text: turn.text } : { functionCall: { name: turn.name, arguments: turn.arguments } };
    return responses({ request, behaviour, started: Date.now() });
  }
  const native = nativeRoute.exec(path);
  if (request.method === 'POST' && native !== null) {
    return googleGenerateAnswer(native[2]!, decodeURIComponent(native[1]!), request.json, request.query.alt === 'sse', script);
  }
  const text = JSON.stringify({ error: { message: `the recorder does not answer ${request.method} ${request.path}` } });
  return { status: 404, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
}
