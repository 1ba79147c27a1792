import { defineTranslator, type ChatCompletionRequest, type NativeGenerateRequest, type TranslationContext } from '../../core/index.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { createNativeStreamTranslation } from './native-stream-translation.js';
import { toChatMessages } from './to-chat-messages.js';
import { toChatOptions } from './to-chat-options.js';

/**
 * The chat completion request for a native generate request, as a client would send it to
 * `/v1/chat/completions`: the model the client named, the messages, the options; a stream asks
 * for usage in its last chunk, which the native answer's `usageMetadata` is written from.
 */
export function toChatRequest(request: NativeGenerateRequest, context: TranslationContext): ChatCompletionRequest {
  const chat: ChatCompletionRequest = { model: context.model, messages: toChatMessages(request), ...toChatOptions(request) };
  if (context.stream) return { ...chat, stream: true, stream_options: { include_usage: true } };
  return chat;
}

/**
 * `native-to-chat`: the native `:generateContent` and `:streamGenerateContent` served by any
 * family that speaks chat completions (translators/native-to-chat/README.md lists every
 * mapping).
 */
export default defineTranslator({
  name: 'native-to-chat',
  client: 'native.generate',
  served: ['chat'],
  request: (request, context) => ({ operation: 'chat', request: toChatRequest(request, context) }),
  answer: (body, usage, _operation, context) => fromChatCompletion(body, usage, context),
  stream: (_operation, context) => createNativeStreamTranslation(context),
});
