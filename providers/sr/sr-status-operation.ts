import { callOpenAiCompatible, type OperationCall, type OperationResult, type PathPrefixOptions, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { readSrVideo, toSrTaskProgress } from './from-sr-video.js';
import { srVideoPath } from './sr-video-path.js';

/**
 * `video.status`: `GET /videos/{id}` (upstreams.md §2.9) as core's task progress (see
 * `toSrTaskProgress`). A 404 or 410 stays a 404 / 4xx gateway error, which core reads as the
 * upstream having lost the task; any other failure leaves the task as it was.
 */
export function createSrStatusOperation(host: ProviderHost) {
  return async (call: OperationCall<VideoTaskQuery, PathPrefixOptions>): Promise<OperationResult> => {
    const response = await callOpenAiCompatible(host, call, srVideoPath(call.request.handle), { method: 'GET' });
    return toSrTaskProgress(readSrVideo(await response.body.text(), true));
  };
}
