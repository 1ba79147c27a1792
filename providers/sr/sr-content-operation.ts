import { callOpenAiCompatible, emptyUsage, headerValue, type OperationCall, type OperationResult, type PathPrefixOptions, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { srVideoPath } from './sr-video-path.js';

/**
 * `video.content`: the finished video's bytes from `GET /videos/{id}/content` (binary mp4,
 * upstreams.md §2.9), which needs the channel's key; handed back unread, typed as the
 * upstream typed them (`video/mp4`). Costs nothing more: the video was charged when it finished.
 */
export function createSrContentOperation(host: ProviderHost) {
  return async (call: OperationCall<VideoTaskQuery, PathPrefixOptions>): Promise<OperationResult> => {
    const response = await callOpenAiCompatible(host, call, srVideoPath(call.request.handle, '/content'), { method: 'GET' });
    const contentType = headerValue(response, 'content-type') ?? 'video/mp4';
    return { kind: 'bytes', body: response.body, contentType, usage: emptyUsage('upstream') };
  };
}
