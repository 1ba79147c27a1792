import { defineProvider } from '../../core/index.js';
import { createQiImageOperation, qiOptionsSchema, type QiOptions } from './qi-image-operation.js';

/** The qi family: Q-style text-to-image and image editing on a DashScope-format upstream. */
export default defineProvider<QiOptions>({
  apiVersion: 1,
  name: 'qi',
  options: qiOptionsSchema,
  create: (_options, host) => ({
    operations: {
      'images.generate': createQiImageOperation(host, 'images.generate'),
      'images.edit': createQiImageOperation(host, 'images.edit'),
    },
  }),
});
