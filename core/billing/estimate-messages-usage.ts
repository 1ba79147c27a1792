import type { MessagesCountTokensRequest } from '../contracts/messages-request.js';
import type { Usage } from '../contracts/usage.js';
import { estimatedBytesPerToken } from './estimate-chat-usage.js';
import { measureChatInput } from './measure-chat-input.js';

const jsonBytes = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8'));

/**
 * The prompt tokens of a Messages request, by the chat estimate's rule (no tokenizer): a
 * quarter of the UTF-8 bytes of the JSON of `system`, `tools` and `messages`, rounded up,
 * with inline images and documents counted by rule instead of by their base64
 * (`inline-media-tokens.ts`). Tools count because the model reads their schemas: a coding
 * agent's tools are a large part of its prompt. What `POST /v1/messages/count_tokens` answers.
 */
export function estimateMessagesInputTokens(request: Pick<MessagesCountTokensRequest, 'system' | 'tools' | 'messages'>): number {
  const conversation = measureChatInput(request.messages);
  return Math.ceil((conversation.textBytes + jsonBytes(request.system) + jsonBytes(request.tools)) / estimatedBytesPerToken) + conversation.mediaTokens;
}

/** The usage to reserve quota by before a Messages call: the prompt as above, and `max_tokens` (which the format requires) of output. Marked `estimated`. */
export function estimateMessagesUsage(request: Pick<MessagesCountTokensRequest, 'system' | 'tools' | 'messages'> & { max_tokens: number }): Usage {
  return {
    inputTokens: estimateMessagesInputTokens(request),
    cachedInputTokens: 0,
    outputTokens: request.max_tokens,
    reasoningTokens: 0,
    source: 'estimated',
  };
}
