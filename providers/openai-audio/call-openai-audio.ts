import { upstreamStatusError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import { describeOpenAiAudioError } from './openai-audio-error.js';
import type { OpenAiAudioOptions } from './openai-audio-options.js';

/** A request body and the content type it is sent with. */
export interface AudioRequestBody {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * POSTs to `{base_url}{path_prefix}{path}` (`/audio/speech`, `/audio/transcriptions`,
 * `/audio/translations`) with the channel's key as a Bearer token (reference/upstreams.md
 * §2.1). A non-2xx answer becomes the gateway error for its status, with OpenAI's own message.
 */
export async function callOpenAiAudio(
  host: ProviderHost,
  call: OperationCall<unknown, OpenAiAudioOptions>,
  path: string,
  request: AudioRequestBody,
): Promise<UpstreamResponse> {
  const response = await host.http.request({
    method: 'POST',
    url: `${call.channel.baseUrl}${call.options.path_prefix}${path}`,
    headers: { 'content-type': request.contentType, authorization: `Bearer ${call.channel.apiKey}` },
    body: request.body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) throw await upstreamStatusError(response, describeOpenAiAudioError);
  return response;
}

/** The first value of a response header, lower-cased keys as undici gives them. */
export function headerOf(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
