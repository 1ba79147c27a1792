import { defineProvider } from '../../core/index.js';
import { dashScopeVideoOptionsSchema, type DashScopeVideoOptions } from './dashscope-video-options.js';
import { createDashScopeVideoStatus, createDashScopeVideoSubmit } from './dashscope-video-operations.js';
import { videoFamilyOf } from './video-family-of-model.js';
import { videoJobUsage } from './video-job-usage.js';

/**
 * The dashscope-video plugin: the wn (wn2.5 flat fields, wn2.7 nested metadata) and hx
 * video families as async tasks on DashScope, one channel serving both. A client model id's
 * prefix picks its family (see `videoFamilyOf`).
 */
export default defineProvider<DashScopeVideoOptions>({
  apiVersion: 1,
  name: 'dashscope-video',
  options: dashScopeVideoOptionsSchema,
  create: (_options, host) => ({
    estimate: { 'video.submit': (request) => videoJobUsage(videoFamilyOf(request.model).readRequest(request)) },
    operations: {
      'video.submit': createDashScopeVideoSubmit(host),
      'video.status': createDashScopeVideoStatus(host),
    },
  }),
});
