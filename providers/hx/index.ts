import { defineProvider } from '../../core/index.js';
import { hxOptionsSchema, type HxOptions } from './hx-options.js';
import { createHxStatus, createHxSubmit } from './hx-video-operations.js';
import { hxJobUsage, readHxRequest } from './read-hx-request.js';

/** The hx family: H-style video (text, first frame, up to 9 reference images) as async tasks on a DashScope-format upstream. */
export default defineProvider<HxOptions>({
  apiVersion: 1,
  name: 'hx',
  options: hxOptionsSchema,
  create: (_options, host) => ({
    estimate: { 'video.submit': (request) => hxJobUsage(readHxRequest(request)) },
    operations: {
      'video.submit': createHxSubmit(host),
      'video.status': createHxStatus(host),
    },
  }),
});
