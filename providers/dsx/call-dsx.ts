import {
  bearerAuthorization,
  describeArkError,
  errorForUpstreamStatus,
  GatewayError,
  isChannelTrouble,
  prefixedUpstreamUrl,
  readArkErrorBody,
  readBodyExcerpt,
  retryAfterHeader,
  upstreamRefusal,
  upstreamStatusError,
  type OperationCall,
  type UpstreamCall,
  type UpstreamResponse,
} from '../../core/index.js';
import type { DsxOptions } from './dsx-options.js';

/** A request to `{base_url}{path_prefix}{path}` with the channel's key as a Bearer token (upstreams.md §3.1), for `callUpstream`. */
export function dsxCall(call: OperationCall<unknown, DsxOptions>, method: 'GET' | 'POST', path: string, body?: unknown): UpstreamCall {
  return {
    method,
    url: prefixedUpstreamUrl(call, path),
    headers: { ...bearerAuthorization(call), accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

/**
 * The error for a refused create. The channel's own trouble (401, 403, 404 unknown model,
 * 408, 429, 5xx) is retryable on another channel; any other refusal is the request's, passed
 * through as spec part 2 says: 502 with Ark's code (`InvalidParameter`) and its `param`
 * (`content[0].image_url.url`, a path in the upstream body), not retried.
 */
export async function dsxSubmitError(response: UpstreamResponse): Promise<GatewayError> {
  const excerpt = await readBodyExcerpt(response);
  const error = readArkErrorBody(excerpt);
  const message = describeArkError(error) ?? `the upstream answered HTTP ${response.statusCode}`;
  if (isChannelTrouble(response.statusCode)) {
    return errorForUpstreamStatus(response.statusCode, message, retryAfterHeader(response));
  }
  return upstreamRefusal(error?.code, error?.message ?? message, { param: error?.param === '' ? undefined : error?.param });
}

/** The error for a failed question about a task: 404 stays 404 (core then marks the task vanished), others by status. */
export const dsxTaskQueryError = (response: UpstreamResponse): Promise<GatewayError> =>
  upstreamStatusError(response, (text) => describeArkError(readArkErrorBody(text)));
