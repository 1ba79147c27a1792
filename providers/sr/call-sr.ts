import type { OperationCall, ProviderHost, UpstreamResponse } from '../../core/index.js';
import type { SrOptions } from './sr-options.js';

/** A serialized request body and its content type. */
export interface SrRequestBody {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * Sends one request to `{base_url}{path_prefix}{path}` (`/videos`, `/videos/{id}`,
 * `/videos/{id}/content`, `/videos/{id}/remix`) with the channel's key as a Bearer token
 * (upstreams.md §2.1, §2.9). The answer comes back unjudged: each operation reads its status
 * its own way.
 */
export function callSr(
  host: ProviderHost,
  call: OperationCall<unknown, SrOptions>,
  method: 'GET' | 'POST',
  path: string,
  request?: SrRequestBody,
): Promise<UpstreamResponse> {
  return host.http.request({
    method,
    url: `${call.channel.baseUrl}${call.options.path_prefix}${path}`,
    headers: { authorization: `Bearer ${call.channel.apiKey}`, ...(request === undefined ? {} : { 'content-type': request.contentType }) },
    body: request?.body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
}

/** The path of one upstream video, its id escaped. */
export const srVideoPath = (id: string, suffix = ''): string => `/videos/${encodeURIComponent(id)}${suffix}`;

/** A JSON body. */
export const srJsonBody = (value: unknown): SrRequestBody => ({ contentType: 'application/json', body: JSON.stringify(value) });

/** A multipart body, serialized by the platform (boundary and all) rather than by hand. */
export async function srMultipartBody(form: FormData): Promise<SrRequestBody> {
  const serialized = new Response(form);
  return { contentType: serialized.headers.get('content-type')!, body: new Uint8Array(await serialized.arrayBuffer()) };
}

/** Whether a status is a 2xx. */
export const isSuccess = (response: UpstreamResponse): boolean => response.statusCode >= 200 && response.statusCode < 300;
