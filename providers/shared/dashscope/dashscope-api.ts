import type { GatewayError, OperationCall, ProviderHost, UpstreamResponse } from '../../../core/index.js';
import { bearerAuthorization, callUpstream, prefixedUpstreamUrl, readBodyExcerpt, retryAfterHeader } from '../../../core/kit/index.js';
import { dashScopeStatusError } from './dashscope-api-errors.js';

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
  refused: (status: number, bodyText: string, retryAfterSeconds?: number) => GatewayError = dashScopeStatusError,
): Promise<UpstreamResponse> {
  const url = prefixedUpstreamUrl(call, path);
  const headers = { ...bearerAuthorization(call), ...request.headers };
  return callUpstream(host, call, request.body === undefined ? { method: 'GET', url, headers } : { url, headers, body: request.body }, async (response) =>
    refused(response.statusCode, await readBodyExcerpt(response), retryAfterHeader(response)),
  );
}
