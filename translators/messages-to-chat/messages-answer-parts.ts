import { type TranslationContext, type Usage } from '../../core/index.js';
import { isRecord, parseEmbeddedJson } from '../../core/kit/index.js';

/** Why a Messages answer stopped. */
export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** The `usage` object of a Messages answer (and of `message_start` / `message_delta`). */
export interface MessagesUsage {
  /** Prompt tokens not read from a cache: Anthropic counts cache reads apart, so this excludes them. */
  input_tokens: number;
  /** Prompt tokens written to a cache: no chat family reports any, so always 0. */
  cache_creation_input_tokens: number;
  /** Prompt tokens read from the upstream's cache. */
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  /** Completion tokens, thinking included (as Anthropic counts them). */
  output_tokens: number;
  /** The part of `output_tokens` spent thinking. */
  output_tokens_details: { thinking_tokens: number };
  service_tier: 'standard';
}

/**
 * The Messages usage for the usage the gateway bills, field for field: `input_tokens` is the
 * billed prompt less its cached part, because Anthropic's `input_tokens` excludes cache reads
 * (so `input_tokens + cache_read_input_tokens` is the billed prompt); output and thinking
 * tokens as they are. Nothing is estimated here and the billed usage is not changed.
 */
export function toMessagesUsage(usage: Usage): MessagesUsage {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInputTokens,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { thinking_tokens: usage.reasoningTokens },
    service_tier: 'standard',
  };
}

/**
 * The Messages stop reason for a chat finish reason: `tool_calls` (and the older
 * `function_call`) is `tool_use`, `length` is `max_tokens`, `content_filter` is `refusal`,
 * and `stop` (or none) is `end_turn`. `stop_sequence` is never reported: a chat answer does
 * not say whether a stop sequence ended it (gx's STOP and OpenAI's `stop` cover both), so
 * such an answer reads `end_turn` with `stop_sequence: null`.
 */
export function toMessagesStopReason(finishReason: string | null | undefined): MessagesStopReason {
  switch (finishReason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** The Messages id of an answer, `msg_` and the gateway's request id (its letters and digits), stable for the request. */
export const messageId = (context: TranslationContext): string => `msg_${context.requestId.replace(/[^A-Za-z0-9]/g, '')}`;

/**
 * A tool call's arguments (a JSON string) as a `tool_use` input object. Arguments that are not
 * a JSON object (cut off by `max_tokens`, or nested deeper than the gateway reads) give `{}`.
 */
export function toolInput(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const parsed = parseEmbeddedJson(text);
  return parsed.kind === 'json' && isRecord(parsed.value) ? parsed.value : {};
}
