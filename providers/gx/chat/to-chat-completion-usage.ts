import type { Usage } from '../../../core/index.js';
import type { ChatCompletionUsage } from '../../../core/index.js';

/**
 * The chat `usage` object for a core usage (spec part 1): every detail field present, 0 when
 * unknown; `total_tokens` is prompt plus completion, which equals the upstream's
 * `totalTokenCount` in every recorded response (it counts thoughts, as completion does).
 */
export function toChatCompletionUsage(usage: Usage): ChatCompletionUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cachedInputTokens,
      text_tokens: usage.inputModalities?.text ?? 0,
      audio_tokens: usage.inputModalities?.audio ?? 0,
      image_tokens: usage.inputModalities?.image ?? 0,
    },
    completion_tokens_details: {
      text_tokens: usage.outputModalities?.text ?? 0,
      audio_tokens: usage.outputModalities?.audio ?? 0,
      image_tokens: usage.outputModalities?.image ?? 0,
      reasoning_tokens: usage.reasoningTokens,
    },
  };
}
