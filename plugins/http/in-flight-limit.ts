import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { serverOverloaded } from '../../core/errors/error-codes.js';
import type { InFlightRequests } from '../../core/pipeline/in-flight-requests.js';
import type { RouteAuth } from '../auth/route-auth.js';
import { dialectOf, formatError, inDialect } from '../errors/error-dialects.js';

/** What a refused client is told to wait: a slot frees as soon as any stream ends, which at full load is a matter of moments. */
export const overloadRetryAfterSeconds = 1;

const modelRouteAuths: ReadonlySet<RouteAuth | undefined> = new Set<RouteAuth | undefined>(['api-key', 'native-api-key', 'messages-api-key']);

/**
 * A model request: a POST on the model surface (`/v1`, `/v1beta`) that takes an API key. Each
 * starts upstream work (a model call, a task submission, an upload) and may hold the process
 * for as long as its stream runs. The reads of that surface (model lists, task status,
 * downloads) are not counted, nor health, metrics, the management API or the console.
 */
function countsAsModelRequest(route: RouteOptions): boolean {
  const methods = typeof route.method === 'string' ? [route.method] : route.method;
  return methods.includes('POST') && /^\/v1(beta)?\//i.test(route.url) && modelRouteAuths.has(route.config?.auth);
}

/**
 * `server.max_in_flight`: each model request is counted ({@link InFlightRequests.admit}) from
 * its arrival until its response closes, a stream until its last event; one that arrives
 * while the process already carries `maxInFlight` is answered at once with 503
 * `server_overloaded` and `Retry-After` in the route's dialect, so the streams being sent
 * keep their pace instead of every one slowing down. The check is a comparison with a
 * counter, made first among the route's `onRequest` hooks (before the API key is looked up
 * and before a byte of the body is read). 0 turns the limit off; the count is kept anyway
 * for the `gateway_model_requests_in_flight` gauge.
 *
 * Registered after `routeAuthPlugin` and before every route-owning plugin: its `onRoute`
 * hook puts the check in front of the guard the auth plugin put first.
 */
export const inFlightLimitPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { inFlight: InFlightRequests; maxInFlight: number; refused: () => void }) => {
    const { inFlight, maxInFlight, refused } = options;
    // One error for every refusal: it is the same words each time, and building a GatewayError
    // captures a stack, which is work an overloaded process should not do per refusal.
    const overloaded = serverOverloaded(maxInFlight, overloadRetryAfterSeconds);
    // A callback hook: it runs on every model request and has nothing to await.
    const admitModelRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      if (maxInFlight > 0 && inFlight.admitted >= maxInFlight) {
        refused();
        // Answered here rather than through the error handler, which logs every 5xx with its
        // stack: a refusal is the process protecting itself, not a failure, and its request
        // log line says it all.
        const dialect = dialectOf(request);
        const presented = inDialect(dialect, overloaded);
        reply.code(presented.statusCode).headers(presented.headers).type('application/json; charset=utf-8').send(formatError(dialect, presented));
        return;
      }
      reply.raw.once('close', inFlight.admit());
      done();
    };
    app.addHook('onRoute', (route) => {
      if (countsAsModelRequest(route)) route.onRequest = [admitModelRequest, ...[route.onRequest ?? []].flat()];
    });
  },
  { name: 'in-flight-limit' },
);
