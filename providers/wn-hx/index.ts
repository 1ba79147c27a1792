import { defineProvider } from '../../core/index.js';
import { pathPrefixOptions, type PathPrefixOptions } from '../../core/kit/index.js';
import { videoJobUsage } from './dashscope-video-family.js';
import { createDashScopeVideoStatus, createDashScopeVideoSubmit, prepareVideoRequest, type PreparedVideoRequest } from './dashscope-video-operations.js';

/**
 * The wn-hx plugin (loaded as `wn` or `hx`): the wn (wn2.5 flat fields, wn2.7 nested metadata) and hx
 * video families as async tasks on DashScope, one channel serving both. A client model id's
 * prefix picks its family (see `videoFamilyOf`).
 */
export default defineProvider<PathPrefixOptions, { 'video.submit': PreparedVideoRequest }>({
  apiVersion: 2,
  name: 'wn-hx',
  // `path_prefix` leads from `base_url` (the DashScope origin, e.g. `https://dashscope-intl.aliyuncs.com`)
  // to `/services/...` and `/tasks/...` (upstreams.md §4.1).
  options: pathPrefixOptions('/api/v1'),
  prepare: { 'video.submit': prepareVideoRequest },
  create: (_options, host) => ({
    estimate: { 'video.submit': (request) => videoJobUsage(request.job) },
    operations: {
      'video.submit': createDashScopeVideoSubmit(host),
      'video.status': createDashScopeVideoStatus(host),
    },
  }),
});
