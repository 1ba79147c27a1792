import { z } from 'zod';
import type { GatewayError, OperationCall, ProviderHost, UpstreamResponse } from '../../../core/index.js';
import {
  bearerAuthorization,
  callUpstream,
  createStatusErrorMapper,
  describeUpstreamError,
  errorForUpstreamStatus,
  pathPrefixOptions,
  prefixedUpstreamUrl,
  readUpstreamJsonAs,
  type UpstreamCall,
  type UpstreamRequestBody,
  type UpstreamStatusMapper,
} from '../../../core/kit/index.js';

// The base of the providers whose upstream speaks OpenAI's HTTP dialect (reference
// upstreams.md §2.1): the key as a Bearer token, paths under the channel's `path_prefix`,
// and error bodies `{"error": {message, type, param, code}}`.

/** A channel's `options` on an OpenAI-style upstream: `path_prefix`, `/v1` unless said otherwise (the path before `/chat/completions`). */
export const openAiCompatibleOptionsSchema = pathPrefixOptions('/v1');

/** The `error` object of an OpenAI-style error body; loose, as every upstream body is read. */
export const openAiErrorDetailSchema = z.looseObject({
  message: z.string().nullish(),
  type: z.string().nullish(),
  param: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
});

/** The `error` object of an OpenAI-style error body. */
export type OpenAiErrorDetail = z.output<typeof openAiErrorDetailSchema>;

/** An OpenAI-style error body: `{"error": {...}}`. */
const openAiErrorBodySchema = z.looseObject({ error: openAiErrorDetailSchema });

/** The upstream's message with its type and code: `Unsupported parameter: temperature (invalid_request_error, unsupported_parameter)`. */
export function describeOpenAiError(error: OpenAiErrorDetail | undefined): string | undefined {
  if (error === undefined) return undefined;
  return describeUpstreamError(error.message, [error.type, error.code].filter((part) => part !== undefined && part !== null && part !== '').join(', '));
}

/** The error object of an OpenAI-style error body, if the text is one. */
export const readOpenAiErrorText = (text: string): OpenAiErrorDetail | undefined => readUpstreamJsonAs(text, openAiErrorBodySchema)?.error;

/**
 * The error object in a parsed JSON answer, when the answer is an error (`{"error": ...}`):
 * an object as it is, a bare message as `{message}`. Undefined for any other answer.
 */
export function readOpenAiError(json: unknown): OpenAiErrorDetail | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = (json as { error: unknown }).error;
  if (error === null || error === undefined) return undefined;
  const parsed = openAiErrorBodySchema.safeParse(json);
  if (parsed.success) return parsed.data.error;
  return { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

// An in-band error carries no HTTP status, so its type and code say how to judge it.
function statusOf(error: OpenAiErrorDetail): number {
  if (typeof error.code === 'number' && error.code >= 400 && error.code <= 599) return error.code;
  const names = [error.type, typeof error.code === 'string' ? error.code : undefined];
  if (names.some((name) => name === 'rate_limit_exceeded' || name === 'insufficient_quota' || name === 'requests' || name === 'tokens')) return 429;
  if (names.some((name) => name === 'invalid_api_key' || name === 'authentication_error')) return 401;
  if (names.some((name) => name === 'model_not_found')) return 404;
  if (names.some((name) => name === 'invalid_request_error')) return 400;
  return 500;
}

/**
 * The gateway error for an error object that arrived with HTTP 200 (a stream frame or a
 * whole body). It carries no status, so its type and code decide: rate limits and quota are
 * 429, a bad key 401, an unknown model 404, an invalid request 400, anything else a server
 * error (see `errorForUpstreamStatus`).
 */
export function openAiErrorToGatewayError(error: OpenAiErrorDetail): GatewayError {
  const status = statusOf(error);
  return errorForUpstreamStatus(status, describeOpenAiError(error) ?? `the upstream reported error ${status}`);
}

/** The gateway error for an OpenAI-style error body that came with a 2xx status (see {@link openAiErrorToGatewayError}); undefined for any other answer. */
export function openAiInBandError(json: unknown): GatewayError | undefined {
  const error = readOpenAiError(json);
  return error === undefined ? undefined : openAiErrorToGatewayError(error);
}

/** Throws the gateway error for an OpenAI-style error body that came with a 2xx status (see {@link openAiInBandError}); returns for any other answer. */
export function rejectOpenAiError(json: unknown): void {
  const error = openAiInBandError(json);
  if (error !== undefined) throw error;
}

/** The gateway error for an OpenAI-style upstream's non-2xx answer, judged by its status with the upstream's own message. */
const openAiStatusError = createStatusErrorMapper({ errorSchema: openAiErrorBodySchema, describe: (body) => describeOpenAiError(body.error) });

/**
 * Calls `{base_url}{path_prefix}{path}` of an OpenAI-style upstream with the channel's key as
 * a Bearer token (POST unless said otherwise), and answers a 2xx response; any other status
 * is thrown as `statusError` makes it, by default {@link openAiStatusError}.
 */
export function callOpenAiCompatible(
  host: ProviderHost,
  call: Pick<OperationCall<unknown, { path_prefix: string }>, 'channel' | 'options' | 'signal'>,
  path: string,
  request: { method?: UpstreamCall['method']; body?: string | UpstreamRequestBody } = {},
  statusError: UpstreamStatusMapper = openAiStatusError,
): Promise<UpstreamResponse> {
  return callUpstream(host, call, { ...request, url: prefixedUpstreamUrl(call, path), headers: bearerAuthorization(call) }, statusError);
}
