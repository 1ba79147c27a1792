import type { OperationCall } from '../contracts/provider/operation-call.js';
import type { ProviderHost } from '../contracts/provider/provider-host.js';
import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import { upstreamStatusError, type UpstreamStatusMapper } from './upstream-error-dialect.js';

/** A request body and the content type it is sent with. */
export interface UpstreamRequestBody {
  contentType: string;
  body: string | Uint8Array;
}

/** A JSON body. */
export const jsonBody = (value: unknown): UpstreamRequestBody => ({ contentType: 'application/json', body: JSON.stringify(value) });

/** A multipart body, serialized by the platform (boundary and all) rather than by hand. */
export async function multipartBody(form: FormData): Promise<UpstreamRequestBody> {
  const serialized = new Response(form);
  return { contentType: serialized.headers.get('content-type')!, body: new Uint8Array(await serialized.arrayBuffer()) };
}

/** One call to a provider's upstream: where it goes and what it carries, the rest comes from the operation call. */
export interface UpstreamCall {
  /** POST unless said otherwise. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** The provider's own headers: its credentials, `accept`. */
  headers?: Record<string, string>;
  /** The body; a string is JSON text, sent as `application/json`. */
  body?: string | UpstreamRequestBody;
}

/** Whether the upstream answered with a 2xx status. */
export const isSuccessStatus = (response: UpstreamResponse): boolean => response.statusCode >= 200 && response.statusCode < 300;

/**
 * Sends one request through the gateway's upstream client with the call's abort signal and
 * the channel's timeouts, and answers the response unjudged: for the calls whose every status
 * the provider reads its own way (a task query where 404 means the task is gone).
 */
export function sendUpstream(host: ProviderHost, call: Pick<OperationCall<unknown, unknown>, 'signal' | 'channel'>, request: UpstreamCall): Promise<UpstreamResponse> {
  const body = typeof request.body === 'string' ? { contentType: 'application/json', body: request.body } : request.body;
  return host.http.request({
    method: request.method ?? 'POST',
    url: request.url,
    headers: body === undefined ? request.headers : { 'content-type': body.contentType, ...request.headers },
    body: body?.body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
}

/**
 * Sends one request (see {@link sendUpstream}) and answers a 2xx response; any other status
 * is thrown as the error `statusError` makes of it, by default {@link upstreamStatusError}'s
 * judgement of the status alone. A provider passes its dialect's mapper (see
 * `createStatusErrorMapper`) to read its error body, or one of its own to name its own codes.
 * @throws GatewayError for a non-2xx answer, and as the upstream client does for connect errors and timeouts.
 */
export async function callUpstream(
  host: ProviderHost,
  call: Pick<OperationCall<unknown, unknown>, 'signal' | 'channel'>,
  request: UpstreamCall,
  statusError: UpstreamStatusMapper = upstreamStatusError,
): Promise<UpstreamResponse> {
  const response = await sendUpstream(host, call, request);
  if (isSuccessStatus(response)) return response;
  throw await statusError(response);
}

/** `Authorization: Bearer <channel key>`, the header OpenAI-style upstreams take the channel's key in. */
export const bearerAuthorization = (call: Pick<OperationCall<unknown, unknown>, 'channel'>): Record<string, string> => ({ authorization: `Bearer ${call.channel.apiKey}` });

/** `{base_url}{path_prefix}{path}`: the address of an upstream path under the channel's prefix (see `pathPrefixOption`). */
export const prefixedUpstreamUrl = (call: Pick<OperationCall<unknown, { path_prefix: string }>, 'channel' | 'options'>, path: string): string =>
  `${call.channel.baseUrl}${call.options.path_prefix}${path}`;

/** The first value of a response header (`name` lower case, as undici gives the keys). */
export function headerValue(response: Pick<UpstreamResponse, 'headers'>, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
