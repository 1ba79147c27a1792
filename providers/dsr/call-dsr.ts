import { upstreamStatusError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import { describeDsrErrorDetail, dsrPromptBlocked, isDsrSensitiveContent, readDsrErrorBody } from './dsr-error.js';
import type { DsrOptions } from './dsr-options.js';
import type { DsrErrorDetail } from './dsr-schemas.js';

/**
 * POSTs the body to `{base_url}{path_prefix}/images/generations` with the channel's key as
 * a Bearer token (upstreams.md §3.1). A non-2xx answer whose code is a safety-filter code is
 * `prompt_blocked`; any other becomes the gateway error for its status, with Ark's message.
 */
export async function callDsr(host: ProviderHost, call: OperationCall<unknown, DsrOptions>, body: string): Promise<UpstreamResponse> {
  const response = await host.http.request({
    method: 'POST',
    url: `${call.channel.baseUrl}${call.options.path_prefix}/images/generations`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${call.channel.apiKey}` },
    body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  const seen: { error?: DsrErrorDetail } = {};
  const failure = await upstreamStatusError(response, (text) => {
    seen.error = readDsrErrorBody(text);
    return seen.error === undefined ? undefined : describeDsrErrorDetail(seen.error);
  });
  if (seen.error !== undefined && isDsrSensitiveContent(seen.error.code)) throw dsrPromptBlocked(seen.error);
  throw failure;
}
