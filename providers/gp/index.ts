import { defineProvider } from '../../core/index.js';
import type { PathPrefixOptions } from '../../core/kit/index.js';
import { openAiCompatibleOptionsSchema } from '../shared/openai-compatible/openai-compatible.js';
import { createGpChatOperation, createGpResponsesOperation } from './gp-operations.js';

/** The gp family: chat completions and Responses passed through to an OpenAI-format upstream. */
export default defineProvider<PathPrefixOptions>({
  apiVersion: 1,
  name: 'gp',
  options: openAiCompatibleOptionsSchema,
  create: (_options, host) => ({
    operations: {
      chat: createGpChatOperation(host),
      responses: createGpResponsesOperation(host),
    },
  }),
});
