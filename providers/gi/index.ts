import { defineProvider } from '../../core/index.js';
import type { PathPrefixOptions } from '../../core/kit/index.js';
import { openAiCompatibleOptionsSchema } from '../shared/openai-compatible/openai-compatible.js';
import { createGiImagesOperation } from './gi-images-operation.js';
import { estimateGiUsage } from './gi-usage.js';
import { prepareGiRequest, type PreparedGiRequest } from './read-gi-request.js';

/** The gi family: GPT-style image generation and editing on an OpenAI-format images upstream. */
export default defineProvider<PathPrefixOptions, { 'images.generate': PreparedGiRequest; 'images.edit': PreparedGiRequest }>({
  apiVersion: 2,
  name: 'gi',
  options: openAiCompatibleOptionsSchema,
  // Up to 10 images, always base64, at up to 4K (8.3 MP) as PNG: some 16 MB of base64 each.
  maxResponseMb: 256,
  prepare: {
    'images.generate': (request) => prepareGiRequest(request, 'generate'),
    'images.edit': (request) => prepareGiRequest(request, 'edit'),
  },
  create: (_options, host) => {
    const images = createGiImagesOperation(host);
    return {
      operations: { 'images.generate': images, 'images.edit': images },
      estimate: { 'images.generate': estimateGiUsage, 'images.edit': estimateGiUsage },
    };
  },
});
