import { defineTranslator } from '../../core/index.js';
import { createChatStreamToResponses } from './chat-stream-to-responses.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { toChatRequest } from './to-chat-request.js';

/**
 * `POST /v1/responses` on a family that speaks chat completions: the request as a chat
 * completion request, the completion (or its stream) back as a Responses object (or its
 * events), usage written from what the gateway bills. `previous_response_id` and
 * `item_reference`s are resolved before, by the conversation store
 * (`core/conversations/responses-conversation-store.ts`); see docs/routes.md for what is
 * translated and what is refused.
 */
export default defineTranslator({
  name: 'responses-to-chat',
  client: 'responses',
  served: ['chat'],
  request: (request, context) => ({ operation: 'chat', request: toChatRequest(request, context) }),
  answer: (body, usage, _operation, context, request) => fromChatCompletion(body, usage, { ...context, request }),
  stream: (_operation, context, request) => createChatStreamToResponses({ ...context, request }),
});
