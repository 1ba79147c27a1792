import type { OperationCall, ProviderHost, UpstreamResponse } from '../../core/index.js';
import { callUpstream, findUrlFields } from '../../core/kit/index.js';
import { googleApiKeyHeader, googleApiUrl, type GoogleApiOptions } from '../shared/google-api/google-api.js';
import { googleStatusError } from '../shared/google-api/google-api-errors.js';

/** A native generate request, ready to send. */
export interface GxRequest {
  /** The upstream model, thinking suffix removed: the `{model}` of the native path. */
  model: string;
  /** The `generateContent` / `streamGenerateContent` body. */
  body: Record<string, unknown>;
}

/** The native methods the gateway calls. */
export type GxMethod = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents';

/**
 * POSTs a native request to `{base_url}/{api_version}/models/{model}:{method}` with the
 * channel's key in `x-gx-api-key` (reference/upstreams.md §1.1, read with neutral names).
 * Streams always use `alt=sse`. A non-2xx answer becomes the gateway error for its status,
 * read with gx's error body (its message, `RetryInfo`, and a refused key told by its reason).
 */
export function callGx(host: ProviderHost, call: OperationCall<unknown, GoogleApiOptions>, model: string, method: GxMethod, body: unknown): Promise<UpstreamResponse> {
  const query = method === 'streamGenerateContent' ? '?alt=sse' : '';
  const url = googleApiUrl(call, `models/${encodeURIComponent(model)}:${method}${query}`);
  return callUpstream(host, call, { url, headers: googleApiKeyHeader(call), body: JSON.stringify(body) }, googleStatusError);
}

/**
 * Checks the `fileData.fileUri` URLs in a native body (the client's native request, or the
 * `extra_body.gx` a chat merges in) against the gateway's address policy before the call:
 * the upstream downloads them itself, so a URL at a loopback, private or metadata address
 * is refused with 400 naming its field (`contents[0].parts[1].fileData.fileUri`) unless
 * `security.media` allows it. `gs://` and Files API URIs are not http(s) and pass untouched.
 */
export async function checkGxFileUris(host: ProviderHost, body: unknown, root: string, signal: AbortSignal): Promise<void> {
  await host.media.checkVendorFetchedUrls(findUrlFields(body, (key) => key === 'fileUri', root), signal);
}
