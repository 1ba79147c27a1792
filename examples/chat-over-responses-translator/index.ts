// A third-party translator: chat completions served on a family whose provider implements only
// the Responses API. The gateway picks it for a channel whose provider lacks `chat` but has
// `responses`; the client keeps speaking chat completions, the provider gets a Responses
// request, and its answers (JSON and streamed) come back as chat completions. It knows the two
// formats, never a vendor: every family that speaks Responses is served by it.
import { defineTranslator } from 'model-gateway';
import { createChunkTranslation } from './to-chat-chunks.js';
import { toChatCompletion } from './to-chat-completion.js';
import { toResponsesRequest } from './to-responses-request.js';

export default defineTranslator({
  name: 'chat-over-responses',
  client: 'chat',
  served: ['responses'],
  request: (request, context) => ({ operation: 'responses', request: toResponsesRequest(request, context) }),
  answer: (body, usage, _operation, context) => toChatCompletion(body, usage, context),
  stream: (_operation, context, request) => createChunkTranslation(context, request),
});
