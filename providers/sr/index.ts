import { defineProvider } from '../../core/index.js';
import type { PathPrefixOptions } from '../../core/kit/index.js';
import { openAiCompatibleOptionsSchema } from '../shared/openai-compatible/openai-compatible.js';
import { prepareSrRequest, type PreparedSrRequest } from './read-sr-request.js';
import { createSrVideoOperations } from './sr-video-operations.js';
import { estimateSrUsage } from './sr-usage.js';

/** The sr family: Sora-style video tasks (sr-2) on an OpenAI videos upstream. */
export default defineProvider<PathPrefixOptions, { 'video.submit': PreparedSrRequest }>({
  apiVersion: 2,
  name: 'sr',
  options: openAiCompatibleOptionsSchema,
  prepare: { 'video.submit': prepareSrRequest },
  create: (_options, host) => ({ operations: createSrVideoOperations(host), estimate: { 'video.submit': estimateSrUsage } }),
});
