import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { bodyTooLarge } from '../http/body-limit.js';
import { dialectOf, formatError, inDialect } from './error-dialects.js';
import { clipped } from '../../core/errors/client-text.js';
import { RouteMethods } from './route-methods.js';

/** Turns fastify's own client errors into gateway errors that say what to change. */
function fromFastifyError(error: FastifyError, bodyLimitMegabytes: number): GatewayError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(bodyLimitMegabytes * 1024 * 1024);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError(415, 'unsupported_media_type', 'unsupported Content-Type; send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError(400, 'invalid_json', 'the body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new GatewayError(400, 'invalid_json', `the body is not valid JSON: ${error.message}`);
    default:
      if (error instanceof SyntaxError || error.statusCode === 400) {
        return new GatewayError(400, 'invalid_request', `the request could not be read: ${error.message}`);
      }
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new GatewayError(error.statusCode, 'invalid_request', error.message);
      }
      return new GatewayError(500, 'internal_error', 'the gateway failed to handle the request; it has been logged', { cause: error });
  }
}

/** One error handler and one not-found handler for the whole app, answering in each route's dialect. */
export const errorHandlerPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { bodyLimitMegabytes: number }) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const gatewayError = GatewayError.is(error) ? error : fromFastifyError(error, options.bodyLimitMegabytes);
      if (gatewayError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      const dialect = dialectOf(request);
      const presented = inDialect(dialect, gatewayError);
      // A route may have typed its reply (audio, video) before its body failed; an error is always JSON.
      reply.code(presented.statusCode).headers(presented.headers).type('application/json; charset=utf-8').send(formatError(dialect, presented));
    });
    const routeMethods = new RouteMethods();
    app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const allowed = routeMethods.allowed(path);
      if (allowed.length > 0) {
        const error = new GatewayError(405, 'method_not_allowed', `${request.method} is not a method of ${clipped(path)}; it takes ${allowed.join(', ')}`);
        reply.code(405).header('allow', allowed.join(', ')).send(formatError(dialectOf(request), error));
        return;
      }
      const error = new GatewayError(404, 'not_found', `no route for ${request.method} ${clipped(path)}`);
      reply.code(404).send(formatError(dialectOf(request), error));
    });
  },
  { name: 'error-handler' },
);

/**
 * For fastify's `frameworkErrors` option: the errors its router raises before any route is
 * chosen (a path that is not valid percent-encoding, a path parameter over
 * `maxParamLength`) answered like every other error, in the dialect of the path, instead of
 * fastify's own JSON.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const gatewayError =
    error.code === 'FST_ERR_BAD_URL'
      ? new GatewayError(400, 'invalid_request', 'the URL is not valid: a percent sign must start a UTF-8 escape such as %20')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new GatewayError(414, 'uri_too_long', 'a segment of the URL path is too long')
        : fromFastifyError(error, 0);
  const dialect = dialectOf(request);
  reply.code(gatewayError.statusCode).type('application/json; charset=utf-8').send(formatError(dialect, inDialect(dialect, gatewayError)));
}
