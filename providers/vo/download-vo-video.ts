import { malformedUpstreamAnswer, videoNotFound, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import { headerValue, isSuccessStatus, sendUpstream } from '../../core/kit/index.js';
import { googleApiKeyHeader, type GoogleApiOptions } from '../shared/google-api/google-api.js';
import { voQueryError } from './vo-error.js';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

const originOf = (text: string): string | undefined => (URL.canParse(text) ? new URL(text).origin : undefined);

/**
 * Fetches a finished video (upstreams.md §1.11: a files `:download?alt=media` URL that needs
 * the key and answers 302 to a signed storage URL), and answers the unread 2xx response. The
 * key goes only to the channel's own origin; any other address, and the redirect's target,
 * is the upstream's word and goes through the media guard (`streamUpstreamUrl`) without it.
 * @throws GatewayError 502 `upstream_url_refused` for an address the guard refuses, 404 when
 *   the upstream no longer has the video, else the error for its status.
 */
export async function downloadVoVideo(host: ProviderHost, call: OperationCall<unknown, GoogleApiOptions>, uri: string): Promise<UpstreamResponse> {
  const guarded = (url: string) => host.media.streamUpstreamUrl(url, { signal: call.signal, timeouts: call.channel.timeouts, channelBaseUrl: call.channel.baseUrl });
  let response: UpstreamResponse;
  if (originOf(uri) === new URL(call.channel.baseUrl).origin) {
    response = await sendUpstream(host, call, { method: 'GET', url: uri, headers: googleApiKeyHeader(call) });
    if (redirectStatuses.has(response.statusCode)) response = await guarded(await redirectTarget(response, uri));
  } else {
    response = await guarded(uri);
  }
  if (response.statusCode === 404 || response.statusCode === 410) {
    await response.body.dump();
    throw videoNotFound('the upstream no longer has this video; it keeps generated videos about 2 days');
  }
  if (!isSuccessStatus(response)) throw await voQueryError(response);
  return response;
}

/** Where a redirect of the channel's download leads, resolved against the address that answered it. */
async function redirectTarget(response: UpstreamResponse, address: string): Promise<string> {
  const text = headerValue(response, 'location');
  await response.body.dump();
  if (text === undefined || text === '') {
    throw malformedUpstreamAnswer(`the video address answered HTTP ${response.statusCode} without a Location`);
  }
  try {
    return new URL(text, address).href;
  } catch (error) {
    throw malformedUpstreamAnswer('the video address redirected to a Location that is not a URL', { cause: error });
  }
}
