import type { BytesResult } from '../contracts/provider/operation-results.js';
import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import { emptyUsage } from '../contracts/usage.js';
import { headerValue } from './call-upstream.js';

/**
 * A `video.content` answer: the finished video's upstream body, unread, typed as `contentType`
 * (by default the upstream's `Content-Type`; `video/mp4` when that is absent or blank), and
 * free: the video was charged when its task finished.
 */
export function videoContentResult(response: UpstreamResponse, contentType = headerValue(response, 'content-type')): BytesResult {
  const type = contentType === undefined || contentType === '' ? 'video/mp4' : contentType;
  return { kind: 'bytes', body: response.body, contentType: type, usage: emptyUsage('upstream') };
}
