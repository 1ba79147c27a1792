import { defineProvider } from '../../core/index.js';
import { pathPrefixOptions, type PathPrefixOptions } from '../../core/kit/index.js';
import { createDsrImagesOperation } from './dsr-images-operation.js';

/** The dsr family: Seedream-style image generation and editing on an Ark-format upstream. */
export default defineProvider<PathPrefixOptions>({
  apiVersion: 1,
  name: 'dsr',
  // `path_prefix` leads to `/images/generations`. Ark's runtime API lives under `/api/v3` on both
  // sites (reference/upstreams.md §3.1), so `base_url` is the bare origin, e.g. `https://ark.cn-beijing.volces.com`.
  options: pathPrefixOptions('/api/v3'),
  // Up to 4 images of a group at 4K (up to 16.6 MP), as b64_json when the client asks: some 22 MB each.
  maxResponseMb: 128,
  create: (_options, host) => ({
    operations: {
      'images.generate': createDsrImagesOperation(host, 'images.generate'),
      'images.edit': createDsrImagesOperation(host, 'images.edit'),
    },
  }),
});
