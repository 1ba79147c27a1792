import {
  bearerAuthorization,
  describeUpstreamError,
  errorForUpstreamStatus,
  GatewayError,
  invalidUpstreamAnswer,
  prefixedUpstreamUrl,
  readBodyExcerpt,
  readUpstreamJsonAs,
  redactSecrets,
  retryAfterHeader,
  upstreamStatusError,
  type OperationCall,
  type UpstreamCall,
  type UpstreamResponse,
} from '../../core/index.js';
import type { DsxOptions } from './dsx-options.js';
import { dsxErrorBodySchema, type DsxErrorDetail } from './dsx-schemas.js';

/** The error object of an Ark error body, if the text is one. */
export const readDsxErrorBody = (text: string): DsxErrorDetail | undefined => readUpstreamJsonAs(text, dsxErrorBodySchema)?.error;

/** Ark's message with its code: `The parameter ... is not valid (InvalidParameter)`. */
export const describeDsxError = (error: DsxErrorDetail | undefined): string | undefined => describeUpstreamError(error?.message, error?.code);

/** A request to `{base_url}{path_prefix}{path}` with the channel's key as a Bearer token (upstreams.md §3.1), for `callUpstream`. */
export function dsxCall(call: OperationCall<unknown, DsxOptions>, method: 'GET' | 'POST', path: string, body?: unknown): UpstreamCall {
  return {
    method,
    url: prefixedUpstreamUrl(call, path),
    headers: { ...bearerAuthorization(call), accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

// The channel's trouble, not the request's: another channel may take the task.
const channelStatuses = new Set([401, 403, 404, 408, 429]);

/**
 * The error for a refused create. The channel's own trouble (401, 403, 404 unknown model,
 * 408, 429, 5xx) is retryable on another channel; any other refusal is the request's, passed
 * through as spec part 2 says: 502 with Ark's code (`InvalidParameter`) and its `param`
 * (`content[0].image_url.url`, a path in the upstream body), not retried.
 */
export async function dsxSubmitError(response: UpstreamResponse): Promise<GatewayError> {
  const excerpt = await readBodyExcerpt(response);
  const error = readDsxErrorBody(excerpt);
  const message = describeDsxError(error) ?? `the upstream answered HTTP ${response.statusCode}`;
  if (channelStatuses.has(response.statusCode) || response.statusCode >= 500 || response.statusCode < 400) {
    return errorForUpstreamStatus(response.statusCode, message, retryAfterHeader(response));
  }
  const param = error?.param ?? '';
  return new GatewayError(502, error?.code ?? 'upstream_invalid_request', redactSecrets(error?.message ?? message), {
    param: param === '' ? undefined : param,
    retryable: false,
  });
}

/** The error for a failed question about a task: 404 stays 404 (core then marks the task vanished), others by status. */
export const dsxTaskQueryError = (response: UpstreamResponse): Promise<GatewayError> =>
  upstreamStatusError(response, (text) => describeDsxError(readDsxErrorBody(text)));

/** 502 for a 2xx answer the gateway cannot read. */
export function invalidDsxResponse(what: string, retryable: boolean, cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(what, { retryable, cause });
}
