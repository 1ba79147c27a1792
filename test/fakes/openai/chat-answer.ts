import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import type { OpenAiBehaviour, OpenAiUsage } from './openai-behaviour.js';
import { openAiErrorBody } from './openai-error-body.js';
import { countWords, jsonAnswer, rawPieces, streamAnswer, type OpenAiRoute } from './openai-wire.js';

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
  usage: OpenAiBehaviour['usage'];
  includeUsage: boolean;
  /** The content filter stopped the answer before any content (`contentFilter`). */
  filtered: boolean;
}

/**
 * `POST /v1/chat/completions` as upstreams.md §2.4 describes it: pretty JSON bodies,
 * `data: <compact JSON>\n\n` events without `event:` lines, `data: [DONE]\n\n` at the end,
 * `usage: null` on every chunk and a last `choices: []` usage chunk when
 * `stream_options.include_usage` is set. The default answer is `echo: <last user text>`.
 */
export function chatCompletionsRoute(): OpenAiRoute {
  let responseCount = 0;
  return ({ request, behaviour, started }) => {
    const body = request.json as ChatRequest | undefined;
    if (typeof body !== 'object' || body === null) {
      return jsonAnswer(400, openAiErrorBody(400, 'We could not parse the JSON body of your request.'), started);
    }
    if (typeof body.model !== 'string') return jsonAnswer(400, openAiErrorBody(400, 'you must provide a model parameter', 'model'), started);
    if (!Array.isArray(body.messages)) return jsonAnswer(400, openAiErrorBody(400, "Missing required parameter: 'messages'.", 'messages'), started);

    responseCount += 1;
    const id = `chatcmpl-fake${String(responseCount).padStart(6, '0')}`;
    const created = Math.floor(Date.now() / 1000);
    const filtered = behaviour.contentFilter === true;
    const text = filtered ? '' : (behaviour.text ?? `echo: ${lastUserText(body.messages)}`);
    const usage = behaviour.usage ?? countUsage(body.messages, text, filtered);
    if (body.stream !== true) return jsonAnswer(200, behaviour.json ?? completion(id, created, body.model, text, usage, filtered), started);
    const includeUsage = body.stream_options?.include_usage === true;
    return streamPieces(behaviour, { id, created, model: body.model, text, usage, includeUsage, filtered }, started);
  };
}

const event = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const doneEvent = 'data: [DONE]\n\n';

function streamPieces(behaviour: OpenAiBehaviour, parts: AnswerParts, started: number): PiecewiseAnswer {
  if (behaviour.rawSse !== undefined) return streamAnswer(rawPieces(behaviour.rawSse), started);
  if (behaviour.sseErrorBeforeContent !== undefined && behaviour.sseErrorBeforeContent !== false) {
    const status = behaviour.sseErrorBeforeContent === true ? 500 : behaviour.sseErrorBeforeContent;
    return streamAnswer([event(openAiErrorBody(status, behaviour.message))], started);
  }
  if (behaviour.chunks !== undefined) return streamAnswer([...behaviour.chunks.map(event), doneEvent], started);

  const chunk = (choices: unknown[], usage?: AnswerParts['usage']) => ({
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
    event(chunk([choice({}, parts.filtered ? 'content_filter' : 'stop')])),
  ];
  if (parts.includeUsage) pieces.push(event(chunk([], parts.usage)));
  pieces.push(doneEvent);
  return streamAnswer(pieces, started);
}

function completion(id: string, created: number, model: string, text: string, usage: AnswerParts['usage'], filtered: boolean): unknown {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: filtered ? null : text, refusal: null, annotations: [] }, logprobs: null, finish_reason: filtered ? 'content_filter' : 'stop' }],
    usage,
    service_tier: 'default',
    system_fingerprint: 'fp_fake0000',
  };
}

/** A deterministic stand-in for a tokenizer: one token per word, plus three per message. */
function countUsage(messages: unknown[], answer: string, filtered: boolean): OpenAiUsage {
  const prompt = messages.reduce<number>((total, message) => total + 3 + countWords(messageText(message)), 0);
  // A filtered answer has no completion tokens; any other at least one.
  const completionTokens = filtered ? 0 : Math.max(1, countWords(answer));
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
