import type { OperationCall, ProviderHost, UpstreamResponse } from '../../core/index.js';
import { giStatusError } from './gi-error.js';
import type { GiOptions } from './gi-options.js';

/** A serialized request body and its content type. */
export interface GiRequestBody {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * POSTs to `{base_url}{path_prefix}{path}` (`/images/generations`, `/images/edits`) with the
 * channel's key as a Bearer token (upstreams.md §2.1). A non-2xx answer becomes the gateway
 * error for it (see `giStatusError`).
 */
export async function callGi(host: ProviderHost, call: OperationCall<unknown, GiOptions>, path: string, request: GiRequestBody): Promise<UpstreamResponse> {
  const response = await host.http.request({
    method: 'POST',
    url: `${call.channel.baseUrl}${call.options.path_prefix}${path}`,
    headers: { 'content-type': request.contentType, authorization: `Bearer ${call.channel.apiKey}` },
    body: request.body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) throw await giStatusError(response);
  return response;
}

/** A JSON body. */
export const jsonBody = (value: unknown): GiRequestBody => ({ contentType: 'application/json', body: JSON.stringify(value) });

/** A multipart body, serialized by the platform (boundary and all) rather than by hand. */
export async function multipartBody(form: FormData): Promise<GiRequestBody> {
  const serialized = new Response(form);
  return { contentType: serialized.headers.get('content-type')!, body: new Uint8Array(await serialized.arrayBuffer()) };
}
