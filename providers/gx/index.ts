import { defineProvider } from '../../core/index.js';
import { googleApiOptionsSchema, type GoogleApiOptions } from '../shared/google-api/google-api.js';
import { createGxChatOperation } from './chat/gx-chat-operation.js';
import { createGxImageOperation, estimateGxImageUsage } from './images/gx-image-operation.js';
import { readGxImageRequest, type GxImagePlan } from './images/read-gx-image-request.js';
import { createGxBatchEmbedOperation, createGxEmbedOperation, createGxGenerateOperation } from './native/gx-native-operations.js';

/**
 * The gx family: chat completions translated to the native API, the native endpoints
 * passed through, and the image endpoints for its image models.
 */
export default defineProvider<GoogleApiOptions, { 'images.generate': GxImagePlan; 'images.edit': GxImagePlan }>({
  apiVersion: 2,
  name: 'gx',
  options: googleApiOptionsSchema,
  // An image model's answer carries its 4K PNGs inline as base64 (some 33 MB each), interim thought images included.
  maxResponseMb: 128,
  // Only the image operations read the request into a plan; chat and the native endpoints take it as the route validated it.
  prepare: { 'images.generate': readGxImageRequest, 'images.edit': readGxImageRequest },
  create: (_options, host) => {
    const images = createGxImageOperation(host);
    return {
      operations: {
        chat: createGxChatOperation(host),
        'native.generate': createGxGenerateOperation(host),
        'native.embed': createGxEmbedOperation(host),
        'native.batchEmbed': createGxBatchEmbedOperation(host),
        'images.generate': images,
        'images.edit': images,
      },
      estimate: { 'images.generate': estimateGxImageUsage, 'images.edit': estimateGxImageUsage },
    };
  },
});
