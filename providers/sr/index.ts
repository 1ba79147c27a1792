import { defineProvider, openAiCompatibleOptionsSchema, type PathPrefixOptions } from '../../core/index.js';
import { estimateSrUsage } from './estimate-sr-usage.js';
import { prepareSrRequest, type PreparedSrRequest } from './prepare-sr-request.js';
import { createSrContentOperation } from './sr-content-operation.js';
import { createSrStatusOperation } from './sr-status-operation.js';
import { createSrSubmitOperation } from './sr-submit-operation.js';

/** The sr family: Sora-style video tasks (sr-2) on an OpenAI videos upstream. */
export default defineProvider<PathPrefixOptions, { 'video.submit': PreparedSrRequest }>({
  apiVersion: 2,
  name: 'sr',
  options: openAiCompatibleOptionsSchema,
  prepare: { 'video.submit': prepareSrRequest },
  create: (_options, host) => ({
    operations: {
      'video.submit': createSrSubmitOperation(host),
      'video.status': createSrStatusOperation(host),
      'video.content': createSrContentOperation(host),
    },
    estimate: { 'video.submit': estimateSrUsage },
  }),
});
