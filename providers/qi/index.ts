import { z } from 'zod';
import { defineProvider, pathPrefixOption } from '../../core/index.js';
import { createQiImageOperation } from './qi-image-operation.js';

/** A qi channel's `options`. */
export const qiOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` (the DashScope origin, e.g.
   * `https://dashscope-intl.aliyuncs.com`) and `/services/aigc/...` (upstreams.md §4.1).
   */
  path_prefix: pathPrefixOption('/api/v1'),
  /**
   * Client model names (exact, or with `*`) that edit images: they take 1 to 3 input images
   * and make 1 to 6 images. Every other model of the channel is text-to-image.
   */
  edit_models: z.array(z.string().min(1, { error: 'expected a model name or pattern' }), { error: 'expected a list of model names or patterns' }).default(['*edit*']),
  /**
   * Download input image URLs through the gateway's media guard and send them as data: URIs,
   * for an upstream that cannot reach the client's URLs. Off by default: DashScope fetches
   * URLs itself.
   */
  fetch_input_urls: z.boolean({ error: 'expected true or false' }).default(false),
});

export type QiOptions = z.output<typeof qiOptionsSchema>;

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
