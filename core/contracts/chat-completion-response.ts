// The client-facing chat completion format (spec part 1, "Chat completion object"): what a
// provider that translates another dialect into chat completions answers.

/** Why a choice stopped. */
export type ChatFinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls';

/** The `usage` object of a completion and of the last stream chunk. All integers. */
export interface ChatCompletionUsage {
  prompt_tokens: number;
  /** Includes reasoning tokens; billing uses it. */
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; text_tokens: number; audio_tokens: number; image_tokens: number };
  completion_tokens_details: { text_tokens: number; audio_tokens: number; image_tokens: number; reasoning_tokens: number };
}

/** A function call the model asks for. */
export interface ChatCompletionToolCall {
  id: string;
  type: 'function';
  /** `arguments` is a JSON string. */
  function: { name: string; arguments: string };
}

/**
 * Reasoning a model hands back opaque, for the client to send back with the turn it belongs
 * to, in the shape of OpenRouter's documented `reasoning_details` (its encrypted kind): a chat
 * client that keeps the assistant message as it got it (`reasoning_details` included) sends it
 * back untouched. `data` is the family's own token (gx's `thoughtSignature`); `id` is the tool
 * call it belongs to, absent when it belongs to the message's text. Families without such
 * tokens (gp) write none.
 */
export interface ChatReasoningDetail {
  type: 'reasoning.encrypted';
  data: string;
  id?: string;
}

/** One token's log probability, with its alternatives. */
export interface ChatCompletionTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** `choices[].logprobs`. */
export interface ChatCompletionLogprobs {
  content: ChatCompletionTokenLogprob[];
  refusal: null;
}

/** The assistant message of a choice. */
export interface ChatCompletionMessage {
  role: 'assistant';
  content: string;
  /** The model's refusal text; `null` when it answered (OpenAI's description requires the field, null included). */
  refusal: string | null;
  /** Thinking text; only present when the upstream returned thoughts. */
  reasoning_content?: string;
  tool_calls?: ChatCompletionToolCall[];
  /** The opaque reasoning tokens of the answer; only present when the upstream gave some. */
  reasoning_details?: ChatReasoningDetail[];
}

/** One choice of a non-streamed completion. */
export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  logprobs: ChatCompletionLogprobs | null;
  finish_reason: ChatFinishReason;
}

/** `object: chat.completion`. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage: ChatCompletionUsage;
}

/** A tool call in a stream delta; the upstream sends each call whole, so all fields are set. */
export interface ChatCompletionToolCallDelta extends ChatCompletionToolCall {
  index: number;
}

/** What one stream chunk adds to a choice. */
export interface ChatCompletionDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: ChatCompletionToolCallDelta[];
  /** Opaque reasoning tokens, each whole, in the chunk of the part they came with. */
  reasoning_details?: ChatReasoningDetail[];
}

/** One choice of a stream chunk. */
export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionDelta;
  logprobs: ChatCompletionLogprobs | null;
  finish_reason: ChatFinishReason | null;
}

/** `object: chat.completion.chunk`. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  /** With `stream_options.include_usage`: null on every chunk but the last, which has `choices: []`. */
  usage?: ChatCompletionUsage | null;
}
