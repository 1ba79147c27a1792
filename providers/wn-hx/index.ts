import { defineProvider } from '../../core/index.js';
import { videoJobUsage } from './dashscope-video-job.js';
import { createDashScopeVideoStatus, createDashScopeVideoSubmit, prepareVideoRequest, type PreparedVideoRequest } from './dashscope-video-operations.js';
import { dashScopeVideoOptionsSchema, type DashScopeVideoOptions } from './dashscope-video-options.js';

/**
 * The wn-hx plugin (loaded as `wn` or `hx`): the wn (wn2.5 flat fields, wn2.7 nested metadata) and hx
 * video families as async tasks on DashScope, one channel serving both. A client model id's
 * prefix picks its family (see `videoFamilyOf`).
 */
export default defineProvider<DashScopeVideoOptions, { 'video.submit': PreparedVideoRequest }>({
  apiVersion: 2,
  name: 'wn-hx',
  options: dashScopeVideoOptionsSchema,
  prepare: { 'video.submit': prepareVideoRequest },
  create: (_options, host) => ({
    estimate: { 'video.submit': (request) => videoJobUsage(request.job) },
    operations: {
      'video.submit': createDashScopeVideoSubmit(host),
      'video.status': createDashScopeVideoStatus(host),
    },
  }),
});
