import { defineProvider } from '../../core/index.js';
import { createGxChatOperation } from './gx-chat-operation.js';
import { createGxBatchEmbedOperation, createGxEmbedOperation, createGxGenerateOperation } from './gx-native-operations.js';
import { gxOptionsSchema, type GxOptions } from './gx-options.js';

/** The gx family: chat completions translated to the native API, and the native endpoints passed through. */
export default defineProvider<GxOptions>({
  apiVersion: 1,
  name: 'gx',
  options: gxOptionsSchema,
  create: (_options, host) => ({
    operations: {
      chat: createGxChatOperation(host),
      'native.generate': createGxGenerateOperation(host),
      'native.embed': createGxEmbedOperation(host),
      'native.batchEmbed': createGxBatchEmbedOperation(host),
    },
  }),
});
