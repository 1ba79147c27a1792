import { emptyUsage, upstreamStatusError, type OperationCall, type OperationResult, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { callSr, isSuccess, srVideoPath } from './call-sr.js';
import { describeSrError } from './sr-error.js';
import type { SrOptions } from './sr-options.js';

/**
 * `video.content`: the finished video's bytes from `GET /videos/{id}/content` (binary mp4,
 * upstreams.md §2.9), which needs the channel's key; handed back unread, typed as the
 * upstream typed them (`video/mp4`). Costs nothing more: the video was charged when it finished.
 */
export function createSrContentOperation(host: ProviderHost) {
  return async (call: OperationCall<VideoTaskQuery, SrOptions>): Promise<OperationResult> => {
    const response = await callSr(host, call, 'GET', srVideoPath(call.request.handle, '/content'));
    if (!isSuccess(response)) throw await upstreamStatusError(response, describeSrError);
    const declared = response.headers['content-type'];
    const contentType = (Array.isArray(declared) ? declared[0] : declared) ?? 'video/mp4';
    return { kind: 'bytes', body: response.body, contentType, usage: emptyUsage('upstream') };
  };
}
