import type { FastifyRequest } from 'fastify';
import type { GatewayError } from '../core/errors/gateway-error.js';

/** The error shapes clients read: management envelope, OpenAI-style, gx native. */
export type ErrorDialect = 'envelope' | 'openai' | 'native';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error shape this route answers in; by default chosen from the URL prefix. */
    dialect?: ErrorDialect;
  }
}

/** The dialect of a request: the route's own, else `/api` envelope, `/v1beta` native, the rest OpenAI. */
export function dialectOf(request: FastifyRequest): ErrorDialect {
  const configured = request.routeOptions.config?.dialect;
  if (configured !== undefined) return configured;
  if (request.url.startsWith('/api/')) return 'envelope';
  if (request.url.startsWith('/v1beta/')) return 'native';
  return 'openai';
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

/** The body of an error in the given dialect. */
export function formatError(dialect: ErrorDialect, error: GatewayError): unknown {
  switch (dialect) {
    case 'envelope':
      return { success: false, message: error.message };
    case 'native':
      return { error: { code: error.statusCode, message: error.message, status: nativeStatuses[error.statusCode] ?? (error.statusCode >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
    case 'openai':
      return { error: openAiErrorObject(error) };
  }
}

/** The inner object of the OpenAI error shape: `{message, type, code, param}`. */
export function openAiErrorObject(error: GatewayError): { message: string; type: string; code: string; param: string | null } {
  return {
    message: error.message,
    type: openAiTypes[error.statusCode] ?? (error.statusCode >= 500 ? 'server_error' : 'invalid_request_error'),
    code: error.code,
    param: error.param ?? null,
  };
}
