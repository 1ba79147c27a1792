import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { GatewayError } from '../../core/errors/gateway-error.js';

const mebibyte = 1024 * 1024;

/**
 * 413 `body_too_large`. The connection is closed after the answer: the client may still be
 * sending the rest of the body, which is drained for a bounded time first (lingering close).
 */
export function bodyTooLarge(limitBytes: number): GatewayError {
  const megabytes = Math.round((limitBytes / mebibyte) * 100) / 100;
  return new GatewayError(413, 'body_too_large', `the request body is larger than the ${megabytes} MB limit (server.body_limit_mb); send a smaller body`, {
    headers: { connection: 'close' },
  });
}

/** The largest body the request's route takes, in bytes: fastify's `bodyLimit`, set from `server.body_limit_mb`. */
export function bodyLimitOf(request: FastifyRequest): number {
  return request.routeOptions.bodyLimit;
}

/**
 * Refuses, on every route and before anything else runs (authentication included), a
 * request whose declared `Content-Length` is over the route's body limit: 413 in the route's
 * dialect at once, without reading a byte of the body. fastify does this itself for the
 * bodies it parses (JSON); multipart bodies are read by the routes, so without this check a
 * client declaring gigabytes was kept waiting. A body without a length (chunked) is counted
 * as it is read: by fastify for JSON, by {@link boundedParts} for multipart.
 */
export const bodyLimitPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    // A callback hook: it runs on every request and has nothing to await.
    app.addHook('onRequest', (request, _reply, done) => {
      const declared = request.headers['content-length'];
      const limit = declared === undefined ? undefined : bodyLimitOf(request);
      done(limit !== undefined && Number(declared) > limit ? bodyTooLarge(limit) : undefined);
    });
  },
  { name: 'body-limit' },
);
