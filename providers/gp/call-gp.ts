import { upstreamStatusError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import { describeGpError } from './gp-error.js';
import type { GpOptions } from './gp-options.js';

/**
 * POSTs a JSON body to `{base_url}{path_prefix}{path}` (`/chat/completions`, `/responses`)
 * with the channel's key as a Bearer token (reference/upstreams.md §2.1). A non-2xx answer
 * becomes the gateway error for its status, with OpenAI's own error message.
 */
export async function callGp(host: ProviderHost, call: OperationCall<unknown, GpOptions>, path: string, body: string): Promise<UpstreamResponse> {
  const response = await host.http.request({
    method: 'POST',
    url: `${call.channel.baseUrl}${call.options.path_prefix}${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${call.channel.apiKey}` },
    body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) throw await upstreamStatusError(response, describeGpError);
  return response;
}
