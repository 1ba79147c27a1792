import { z } from 'zod';
import { tokenCount, type Usage } from '../../../core/index.js';

// The usage objects of OpenAI's HTTP dialect, read leniently: every count may be missing.

const count = z.number().nullish();

/** The `usage` of a chat completion, or of a stream's last chunk (upstreams.md §2.4). */
export const openAiChatUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count, audio_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count, audio_tokens: count }).nullish(),
});

/** A chat completion's `usage` as read. */
export type OpenAiChatUsage = z.output<typeof openAiChatUsageSchema>;

/**
 * The `usage` of a Responses object (upstreams.md §2.2) or of an images answer (§2.7): input
 * and output tokens, with the cached and reasoning parts, or the text / image split, in their
 * details.
 */
export const openAiTokenUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count, text_tokens: count, image_tokens: count }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: count, text_tokens: count, image_tokens: count }).nullish(),
});

/** A Responses or images `usage` as read. */
export type OpenAiTokenUsage = z.output<typeof openAiTokenUsageSchema>;

/** The core usage of a chat `usage`: its prompt and completion counts already include the cached and reasoning parts, as core's do. */
export function fromOpenAiChatUsage(usage: OpenAiChatUsage): Usage {
  return {
    inputTokens: tokenCount(usage.prompt_tokens),
    cachedInputTokens: tokenCount(usage.prompt_tokens_details?.cached_tokens),
    outputTokens: tokenCount(usage.completion_tokens),
    reasoningTokens: tokenCount(usage.completion_tokens_details?.reasoning_tokens),
    source: 'upstream',
  };
}

/** The core usage of a Responses or images `usage`: input includes cached, output includes reasoning. */
export function fromOpenAiTokenUsage(usage: OpenAiTokenUsage | null | undefined): Usage {
  return {
    inputTokens: tokenCount(usage?.input_tokens),
    cachedInputTokens: tokenCount(usage?.input_tokens_details?.cached_tokens),
    outputTokens: tokenCount(usage?.output_tokens),
    reasoningTokens: tokenCount(usage?.output_tokens_details?.reasoning_tokens),
    source: 'upstream',
  };
}
