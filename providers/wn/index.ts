import { defineProvider } from '../../core/index.js';
import { readWnVideoRequest, wnJobUsage } from './read-wn-video-request.js';
import { wnOptionsSchema, type WnOptions } from './wn-options.js';
import { createWnStatus, createWnSubmit } from './wn-video-operations.js';

/** The wn family: W-style video (wn2.5 flat fields, wn2.7 nested metadata) as async tasks on a DashScope-format upstream. */
export default defineProvider<WnOptions>({
  apiVersion: 1,
  name: 'wn',
  options: wnOptionsSchema,
  create: (_options, host) => ({
    estimate: { 'video.submit': (request) => wnJobUsage(readWnVideoRequest(request)) },
    operations: {
      'video.submit': createWnSubmit(host),
      'video.status': createWnStatus(host),
    },
  }),
});
