import { upstreamModelUnknown, type GatewayError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../../core/index.js';
import { bearerAuthorization, callUpstream, errorForUpstreamStatus, prefixedUpstreamUrl, readBodyExcerpt, retryAfterHeader } from '../../../core/kit/index.js';
import { describeDashScopeError, isDashScopeModelCode, readDashScopeErrorBody, type DashScopeErrorBody } from './dashscope-api-errors.js';

/** Makes the error for a DashScope upstream's non-2xx answer from its status, its body's first 64 KiB and its `Retry-After` delay. */
export type DashScopeRefusal = (status: number, bodyText: string, retryAfterSeconds?: number) => GatewayError;

/**
 * The gateway error for a DashScope `error` (a body's, or a code sent with HTTP 200) with
 * the `status` it came with or stands for: a code about the model alone
 * (`isDashScopeModelCode`) is `upstreamModelUnknown`, tried on another channel but never the
 * channel's failure; anything else is judged by its status (see `errorForUpstreamStatus`), in
 * DashScope's own words.
 */
export function dashScopeError(status: number, error: DashScopeErrorBody | undefined, retryAfterSeconds?: number): GatewayError {
  const message = (error === undefined ? undefined : describeDashScopeError(error)) ?? `the upstream answered HTTP ${status}`;
  return isDashScopeModelCode(error?.code) ? upstreamModelUnknown(message) : errorForUpstreamStatus(status, message, retryAfterSeconds);
}

/** A non-2xx answer judged by its body's code and its status (see {@link dashScopeError}). */
export const dashScopeStatusError: DashScopeRefusal = (status, bodyText, retryAfterSeconds) => dashScopeError(status, readDashScopeErrorBody(bodyText), retryAfterSeconds);

/**
 * Calls a DashScope-format upstream (upstreams.md §4.1): `{base_url}{path_prefix}{path}` with
 * the channel's key as a Bearer token and `headers` after it, POSTing `body` (JSON text) when
 * given, else a GET. Answers a 2xx response; any other is thrown as `refused` makes it.
 */
export function callDashScope(
  host: ProviderHost,
  call: Pick<OperationCall<unknown, { path_prefix: string }>, 'signal' | 'channel' | 'options'>,
  path: string,
  request: { body?: string; headers?: Record<string, string> } = {},
  refused: DashScopeRefusal = dashScopeStatusError,
): Promise<UpstreamResponse> {
  const url = prefixedUpstreamUrl(call, path);
  const headers = { ...bearerAuthorization(call), ...request.headers };
  return callUpstream(host, call, request.body === undefined ? { method: 'GET', url, headers } : { url, headers, body: request.body }, async (response) =>
    refused(response.statusCode, await readBodyExcerpt(response), retryAfterHeader(response)),
  );
}
