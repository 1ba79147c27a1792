import { defineProvider, type ChatCompletionRequest, type ResponsesRequest } from '../../core/index.js';
import type { PathPrefixOptions } from '../../core/kit/index.js';
import { openAiCompatibleOptionsSchema } from '../shared/openai-compatible/openai-compatible.js';
import { createGpChatOperation, createGpResponsesOperation, prepareGpRequest, type PreparedGpRequest } from './gp-operations.js';

/** The gp family: chat completions and Responses passed through to an OpenAI-format upstream. */
export default defineProvider<PathPrefixOptions, { chat: PreparedGpRequest<ChatCompletionRequest>; responses: PreparedGpRequest<ResponsesRequest> }>({
  apiVersion: 2,
  name: 'gp',
  options: openAiCompatibleOptionsSchema,
  prepare: { chat: prepareGpRequest, responses: prepareGpRequest },
  create: (_options, host) => ({
    operations: {
      chat: createGpChatOperation(host),
      responses: createGpResponsesOperation(host),
    },
  }),
});
