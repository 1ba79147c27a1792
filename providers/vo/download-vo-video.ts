import { GatewayError, upstreamStatusError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import { voKeyHeader } from './call-vo.js';
import { describeVoError } from './vo-error.js';
import type { VoOptions } from './vo-options.js';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function videoAddress(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch (error) {
    throw new GatewayError(502, 'upstream_invalid_response', 'the upstream gave a video address that is not a URL', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError(502, 'upstream_invalid_response', `the upstream gave a video address on ${url.protocol}, which the gateway does not fetch`);
  }
  return url;
}

/**
 * Fetches a finished video from its upstream address (upstreams.md §1.11: a files
 * `:download?alt=media` URL that needs the key and answers 302 to a signed storage URL). The
 * channel's key goes only to the channel's own origin, never to the storage host or any
 * other; undici does not follow redirects, so the one hop is followed here, checked to be
 * http(s) again. The answer is the unread 2xx response.
 * @throws GatewayError 404 when the upstream no longer has the video, else the error for its status.
 */
export async function downloadVoVideo(host: ProviderHost, call: OperationCall<unknown, VoOptions>, uri: string): Promise<UpstreamResponse> {
  const channelOrigin = new URL(call.channel.baseUrl).origin;
  const get = (url: URL) =>
    host.http.request({
      method: 'GET',
      url: url.href,
      headers: url.origin === channelOrigin ? { [voKeyHeader]: call.channel.apiKey } : {},
      signal: call.signal,
      timeouts: call.channel.timeouts,
    });
  const first = videoAddress(uri);
  let response = await get(first);
  if (redirectStatuses.has(response.statusCode)) {
    const location = response.headers.location;
    await response.body.dump();
    if (typeof location !== 'string' || location === '') {
      throw new GatewayError(502, 'upstream_invalid_response', `the video address answered HTTP ${response.statusCode} without a Location`, { retryable: true });
    }
    response = await get(videoAddress(location, first));
    if (redirectStatuses.has(response.statusCode)) {
      await response.body.dump();
      throw new GatewayError(502, 'upstream_invalid_response', 'the video address redirected more than once', { retryable: true });
    }
  }
  if (response.statusCode === 404 || response.statusCode === 410) {
    await response.body.dump();
    throw new GatewayError(404, 'video_not_found', 'the upstream no longer has this video; it keeps generated videos about 2 days');
  }
  if (response.statusCode < 200 || response.statusCode >= 300) throw await upstreamStatusError(response, describeVoError);
  return response;
}
