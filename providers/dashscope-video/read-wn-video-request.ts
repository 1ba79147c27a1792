import type { VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';
import { readWnFlatRequest } from './read-wn-flat-request.js';
import { readWnNestedRequest } from './read-wn-nested-request.js';
import { requireWnModelKind } from './wn-model-kind.js';

/**
 * Reads a wn submission by its model's rules: the flat wn2.5 fields or the nested wn2.7
 * ones. Pure and synchronous, so the estimate (before any quota is held) and the submit
 * read the request the same way; every refusal is a 400 naming the field.
 */
export function readWnVideoRequest(request: VideoSubmitRequest): DashScopeVideoJob {
  const kind = requireWnModelKind(request.model);
  return kind.family === 'wn2.5' ? readWnFlatRequest(request, kind.mode) : readWnNestedRequest(request, kind.mode);
}
