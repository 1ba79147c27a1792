import { callUpstream, googleApiKeyHeader, googleApiUrl, googleStatusError, type GoogleApiOptions, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';

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
  return callUpstream(
    host,
    call,
    {
      url: googleApiUrl(call, `models/${encodeURIComponent(model)}:${method}${query}`),
      headers: googleApiKeyHeader(call),
      body: JSON.stringify(body),
    },
    googleStatusError,
  );
}
