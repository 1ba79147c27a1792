import { defineTranslator } from '../../core/index.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { createMessagesStreamTranslation } from './messages-stream-translation.js';
import { toChatRequest } from './to-chat-request.js';

/**
 * `POST /v1/messages` (the Anthropic Messages format) on every family whose provider
 * implements `chat`: the request as a chat completion request, the chat answer and stream
 * back as a Messages answer and event stream, usage from the billed usage.
 */
export default defineTranslator({
  name: 'messages-to-chat',
  client: 'messages',
  served: ['chat'],
  request: (request, context) => ({ operation: 'chat', request: toChatRequest(request, context) }),
  answer: (body, usage, _operation, context) => fromChatCompletion(body, usage, context),
  stream: (_operation, context) => createMessagesStreamTranslation(context),
});
