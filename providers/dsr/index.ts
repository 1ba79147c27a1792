import { defineProvider } from '../../core/index.js';
import { createDsrImagesOperation } from './dsr-images-operation.js';
import { dsrOptionsSchema, type DsrOptions } from './dsr-options.js';

/** The dsr family: Seedream-style image generation and editing on an Ark-format upstream. */
export default defineProvider<DsrOptions>({
  apiVersion: 1,
  name: 'dsr',
  options: dsrOptionsSchema,
  create: (_options, host) => ({
    operations: {
      'images.generate': createDsrImagesOperation(host, 'images.generate'),
      'images.edit': createDsrImagesOperation(host, 'images.edit'),
    },
  }),
});
