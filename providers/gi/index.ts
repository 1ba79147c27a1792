import { defineProvider } from '../../core/index.js';
import { estimateGiUsage } from './estimate-gi-usage.js';
import { createGiImagesOperation } from './gi-images-operation.js';
import { giOptionsSchema, type GiOptions } from './gi-options.js';

/** The gi family: GPT-style image generation and editing on an OpenAI-format images upstream. */
export default defineProvider<GiOptions>({
  apiVersion: 1,
  name: 'gi',
  options: giOptionsSchema,
  create: (_options, host) => ({
    operations: {
      'images.generate': createGiImagesOperation(host, 'generate'),
      'images.edit': createGiImagesOperation(host, 'edit'),
    },
    estimate: {
      'images.generate': (request) => estimateGiUsage(request, 'generate'),
      'images.edit': (request) => estimateGiUsage(request, 'edit'),
    },
  }),
});
