import type { GatewayConfig } from '../config/config-schema.js';
import type { Usage } from '../contracts/usage.js';
import { measureChatInput } from './measure-chat-input.js';

/**
 * The parts of a chat-like request the estimate reads: OpenAI-style `messages`, Responses
 * `input` (with `instructions`), or native `contents` (with `systemInstruction`), and the
 * output limit under any of its names.
 */
export interface ChatLikeRequest {
  messages?: unknown;
  input?: unknown;
  instructions?: unknown;
  max_output_tokens?: unknown;
  contents?: unknown;
  systemInstruction?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
  generationConfig?: unknown;
}

/** The estimate's rate for text: a token for every 4 UTF-8 bytes of JSON. */
export const estimatedBytesPerToken = 4;

const positiveInteger = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** The output limit the client set, if any: `max_completion_tokens`, `max_tokens`, `max_output_tokens` or `generationConfig.maxOutputTokens`. */
export function requestedOutputTokens(request: ChatLikeRequest): number | undefined {
  const generationConfig = request.generationConfig;
  const maxOutputTokens =
    typeof generationConfig === 'object' && generationConfig !== null ? (generationConfig as { maxOutputTokens?: unknown }).maxOutputTokens : undefined;
  return (
    positiveInteger(request.max_completion_tokens) ??
    positiveInteger(request.max_tokens) ??
    positiveInteger(request.max_output_tokens) ??
    positiveInteger(maxOutputTokens)
  );
}

/**
 * A cheap usage estimate to reserve quota by before a chat-like call, without a tokenizer:
 * input tokens are a quarter of the UTF-8 bytes of the JSON of the messages (or of the
 * Responses input and instructions, or of the native contents and system instruction),
 * rounded up, except that inline media (data URIs and base64 payloads) count by rule instead
 * of by their bytes: a fixed count per image, audio by its duration, other files as the text
 * they decode to (`inline-media-tokens.ts`). Output tokens are `outputTokens` when given,
 * else the limit the client set, else `billing.estimated_output_tokens`. Marked `estimated`.
 * `body` is read as a {@link ChatLikeRequest}; other fields are ignored.
 */
export function estimateChatUsage(body: object, config: Pick<GatewayConfig, 'billing'>, outputTokens?: number): Usage {
  // Any request object is accepted, so a route may pass a union of request shapes; the
  // fields are read as {@link ChatLikeRequest} and checked at run time.
  const request = body as ChatLikeRequest;
  const input =
    request.messages !== undefined
      ? request.messages
      : request.input !== undefined
        ? { instructions: request.instructions, input: request.input }
        : { systemInstruction: request.systemInstruction, contents: request.contents };
  const size = measureChatInput(input);
  return {
    inputTokens: Math.ceil(size.textBytes / estimatedBytesPerToken) + size.mediaTokens,
    cachedInputTokens: 0,
    outputTokens: outputTokens ?? requestedOutputTokens(request) ?? config.billing.estimated_output_tokens,
    reasoningTokens: 0,
    source: 'estimated',
  };
}
