import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { GatewayErrorCode } from '../../core/errors/error-code-registry.js';
import { scrubSecrets } from '../../core/security/secret-values.js';

/** The error shapes clients read: management envelope, OpenAI-style, gx native, the image routes' table, and Anthropic's (the Messages routes). */
export type ErrorDialect = 'envelope' | 'openai' | 'native' | 'images' | 'anthropic';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error shape this route answers in; by default chosen from the route's pattern. */
    dialect?: ErrorDialect;
  }
}

/**
 * The dialect of a request: the one its route declared, else by the route's own pattern
 * (`/api` envelope, `/v1beta` native, the rest OpenAI; an unmatched `/v1/messages/…` Anthropic's). Never by the URL as sent, which may
 * spell the same route percent-encoded, in another case, with doubled slashes or in
 * absolute form; only a request no route matched is read from its path, normalized as the
 * router reads it.
 */
export function dialectOf(request: FastifyRequest): ErrorDialect {
  const configured = request.routeOptions.config?.dialect;
  if (configured !== undefined) return configured;
  const pattern = request.is404 ? undefined : request.routeOptions.url;
  const path = pattern ?? routerPath(request.url);
  if (path.startsWith('/api/')) return 'envelope';
  if (path.startsWith('/v1beta/')) return 'native';
  // The Messages routes declare their dialect; a path beside them that no route serves
  // (`/v1/messages/batches`) answers in it too, since only an Anthropic client calls there.
  if (pattern === undefined && (path === '/v1/messages' || path.startsWith('/v1/messages/'))) return 'anthropic';
  return 'openai';
}

/**
 * A request target's path as the router matches it: the scheme and host of the absolute
 * form dropped, percent-escapes decoded (when they are valid), runs of slashes collapsed,
 * lower case.
 */
function routerPath(target: string): string {
  let path = target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '').split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding (the router refused it): read as sent.
  }
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}

const openAiTypes: Record<number, string> = {
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  429: 'rate_limit_error',
};

const nativeStatuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'RESOURCE_EXHAUSTED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * The body of an error in the given dialect. Every error a client reads is formatted here or
 * by {@link openAiErrorObject} (the error handler's answers and every stream's in-band error),
 * so this is where an upstream's message, code or param is scrubbed of the operator's secrets.
 */
export function formatError(dialect: ErrorDialect, error: GatewayError): unknown {
  switch (dialect) {
    case 'envelope':
      return { success: false, message: scrubSecrets(error.message) };
    case 'native':
      return { error: { code: error.statusCode, message: scrubSecrets(error.message), status: nativeStatuses[error.statusCode] ?? (error.statusCode >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
    case 'openai':
      return { error: openAiErrorObject(error) };
    case 'images':
      return { error: { message: scrubSecrets(error.message), type: error.statusCode >= 500 ? 'server_error' : 'invalid_request_error', code: scrubSecrets(error.code) } };
    case 'anthropic':
      return { type: 'error', error: anthropicErrorObject(error) };
  }
}

// Anthropic's error types by HTTP status (its API errors page); 503, the gateway's "no channel
// can take it now", reads as Anthropic's overloaded_error, which its SDK and Claude Code retry.
const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * The inner object of Anthropic's error shape, `{type, message}`, scrubbed of the operator's
 * secrets: the type by status (another 4xx is `invalid_request_error`, another 5xx
 * `api_error`). The shape has no place for the gateway's stable code, which the log line keeps.
 */
export function anthropicErrorObject(error: GatewayError): { type: string; message: string } {
  return {
    type: anthropicTypes[error.statusCode] ?? (error.statusCode >= 500 ? 'api_error' : 'invalid_request_error'),
    message: scrubSecrets(error.message),
  };
}

/**
 * The error as a dialect presents it. The image routes answer with the statuses and codes of
 * spec part 2's errors table: every client mistake is 400 `invalid_request` (unknown model
 * included) unless it is `prompt_blocked`; 401 `invalid_authentication`; 402
 * `insufficient_quota`; 429 `rate_limit_exceeded` with `Retry-After`; 502 `empty_response`
 * when the upstream produced no image; 504 `request_timeout`; any other upstream or gateway
 * failure 503 `bad_response`. The other dialects present the error as it is.
 */
export function inDialect(dialect: ErrorDialect, error: GatewayError): GatewayError {
  if (dialect !== 'images') return error;
  const as = (status: number, code: GatewayErrorCode, headers = error.headers) => new GatewayError(status, code, error.message, { headers, param: error.param, cause: error });
  const status = error.statusCode;
  if (status === 401) return as(401, 'invalid_authentication');
  if (status === 402) return as(402, 'insufficient_quota');
  if (status === 429) return as(429, 'rate_limit_exceeded', { 'retry-after': '1', ...error.headers });
  if (error.code === 'prompt_blocked') return as(400, 'prompt_blocked');
  if (status === 403 || status === 413 || status === 499) return error;
  if (status >= 400 && status < 500) return as(400, 'invalid_request');
  if (error.code === 'empty_response') return as(502, 'empty_response');
  if (status === 504) return as(504, 'request_timeout');
  return as(503, 'bad_response');
}

/** The inner object of the OpenAI error shape: `{message, type, code, param}`, scrubbed of the operator's secrets. */
export function openAiErrorObject(error: GatewayError): { message: string; type: string; code: string; param: string | null } {
  return {
    message: scrubSecrets(error.message),
    type: openAiTypes[error.statusCode] ?? (error.statusCode >= 500 ? 'server_error' : 'invalid_request_error'),
    code: scrubSecrets(error.code),
    param: error.param === undefined ? null : scrubSecrets(error.param),
  };
}
