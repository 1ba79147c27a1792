import { invalidRequest, type ChatCompletionRequest, type ResponsesRequest, type TranslationContext } from '../../core/index.js';
import { refuseUnknownFields } from './refuse-unknown-fields.js';
import { toChatMessages } from './to-chat-messages.js';
import { declaredTools, toChatTools } from './to-chat-tools.js';

/**
 * The request fields the translation knows. Those it does not map are harmless to leave out:
 * `metadata` labels the response and is echoed, not sent, and `client_metadata` (Codex's
 * session labels) is neither; `store` decides what the
 * conversation store keeps; `previous_response_id` is echoed after the conversation store
 * expanded it; `max_tool_calls` limits hosted tools, which are refused anyway; `include`
 * asks for outputs (see {@link chatLogprobs}); `stream_options.include_obfuscation` pads
 * deltas this translation never pads; `reasoning.summary` is answered with the family's own
 * thoughts when it returns them.
 */
const knownFields = [
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'top_logprobs',
  'reasoning',
  'text',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tool_calls',
  'previous_response_id',
  'truncation',
  'include',
  'store',
  'background',
  'metadata',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'client_metadata',
];

/** The efforts chat's `reasoning_effort` takes; `xhigh` and `max` have no chat word. */
const chatEfforts = new Set(['none', 'minimal', 'low', 'medium', 'high']);

const cannotServe = (field: string, problem: string) => invalidRequest(`${field}: ${problem}`, { param: field });

/** `reasoning` in chat form: the effort as `reasoning_effort`, which each family maps to its own thinking controls. */
function chatReasoning(reasoning: ResponsesRequest['reasoning']): Pick<ChatCompletionRequest, 'reasoning_effort'> {
  if (reasoning === undefined || reasoning === null) return {};
  refuseUnknownFields(reasoning, ['effort', 'summary', 'generate_summary'], 'reasoning');
  const effort = reasoning.effort;
  if (effort === undefined || effort === null) return {};
  if (!chatEfforts.has(effort)) throw cannotServe('reasoning.effort', `"${effort}" cannot be served on this model, whose family speaks chat completions; use none, minimal, low, medium or high`);
  return { reasoning_effort: effort as NonNullable<ChatCompletionRequest['reasoning_effort']> };
}

/** `text` in chat form: `format` as `response_format`, `verbosity` as it is. */
function chatText(text: ResponsesRequest['text']): Pick<ChatCompletionRequest, 'response_format'> & { verbosity?: string } {
  if (text === undefined || text === null) return {};
  refuseUnknownFields(text, ['format', 'verbosity'], 'text');
  const result: Pick<ChatCompletionRequest, 'response_format'> & { verbosity?: string } = {};
  const format = text.format;
  if (format?.type === 'json_object') result.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema') {
    const { type: _type, ...jsonSchema } = format;
    result.response_format = { type: 'json_schema', json_schema: jsonSchema };
  }
  if (typeof text.verbosity === 'string') result.verbosity = text.verbosity;
  return result;
}

/**
 * Log probabilities: asked for with `include: ["message.output_text.logprobs"]`, as chat's
 * `logprobs`, with `top_logprobs` alternatives per token; `top_logprobs` without the
 * include returns nothing on the Responses side either, so it is not sent.
 */
function chatLogprobs(request: ResponsesRequest): Pick<ChatCompletionRequest, 'logprobs' | 'top_logprobs'> {
  if (!(request.include ?? []).includes('message.output_text.logprobs')) return {};
  const result: Pick<ChatCompletionRequest, 'logprobs' | 'top_logprobs'> = { logprobs: true };
  if (typeof request.top_logprobs === 'number') result.top_logprobs = request.top_logprobs;
  return result;
}

/** Fields of the chat format with the same name and meaning, passed as they are when set. */
const sameOnBothSides = ['temperature', 'top_p', 'user', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention', 'service_tier'] as const;

/**
 * The chat completion request for a Responses request (the client's validated request,
 * after the conversation store expanded `previous_response_id` and item references):
 * messages from `instructions` and `input`, `max_output_tokens` as
 * `max_completion_tokens`, the effort, tools, text format and log probabilities mapped,
 * and a stream that asks for usage. What chat cannot say is a 400 naming the client's
 * field: hosted tools, `background`, `truncation: "auto"`, an effort above high, and any
 * field not listed in {@link knownFields}.
 */
export function toChatRequest(request: ResponsesRequest, context: TranslationContext): ChatCompletionRequest {
  refuseUnknownFields(request, knownFields);
  if (request.background === true) throw cannotServe('background', 'background responses cannot be served on this model; send the request without background and wait for the answer');
  if (request.truncation === 'auto') throw cannotServe('truncation', '"auto" cannot be served on this model, whose family does not drop input to fit; leave truncation out, or send less input');
  if (request.stream_options !== undefined && request.stream_options !== null) refuseUnknownFields(request.stream_options, ['include_obfuscation'], 'stream_options');

  const chat: ChatCompletionRequest = { model: request.model, messages: toChatMessages(request) };
  const loose = chat as Record<string, unknown>;
  if (context.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  for (const field of sameOnBothSides) {
    const value = request[field];
    if (value !== undefined && value !== null) loose[field] = value;
  }
  if (typeof request.max_output_tokens === 'number') chat.max_completion_tokens = request.max_output_tokens;
  return { ...chat, ...chatReasoning(request.reasoning), ...chatText(request.text), ...chatLogprobs(request), ...toChatTools(request, declaredTools(request)) };
}
