import type { Usage } from 'model-gateway';

/** A chat completion's `usage`, written from the usage the gateway bills: the same counts, exactly. */
export function chatUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** The chat finish reason of a Responses object's status: `incomplete` for its output limit is `length`, a finished turn that asks for tools is `tool_calls`. */
export function chatFinishReason(status: string | null | undefined, incompleteReason: string | null | undefined, calledTools: boolean): 'stop' | 'length' | 'content_filter' | 'tool_calls' {
  if (status === 'incomplete') return incompleteReason === 'content_filter' ? 'content_filter' : 'length';
  return calledTools ? 'tool_calls' : 'stop';
}
