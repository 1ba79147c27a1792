import { defineProvider } from '../../core/index.js';
import { createGpChatOperation } from './gp-chat-operation.js';
import { gpOptionsSchema, type GpOptions } from './gp-options.js';
import { createGpResponsesOperation } from './gp-responses-operation.js';

/** The gp family: chat completions and Responses passed through to an OpenAI-format upstream. */
export default defineProvider<GpOptions>({
  apiVersion: 1,
  name: 'gp',
  options: gpOptionsSchema,
  create: (_options, host) => ({
    operations: {
      chat: createGpChatOperation(host),
      responses: createGpResponsesOperation(host),
    },
  }),
});
