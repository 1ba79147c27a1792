import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { GatewayMetrics } from '../../core/observability/gateway-metrics.js';

/**
 * `GET /metrics` in the Prometheus text format, and the HTTP side of the metrics: every
 * response by route (the route's pattern, so ids do not explode the label set) and status,
 * and the streams open to clients (an SSE body counts from its headers until its connection
 * closes). The route takes no key: expose it only where the scraper can reach it.
 */
export const metricsPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { metrics: GatewayMetrics }) => {
    const { metrics } = options;
    app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
    app.addHook('onSend', async (_request, reply, payload) => {
      if (payload instanceof Readable && String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
        metrics.streamOpened();
        reply.raw.once('close', () => metrics.streamClosed());
      }
      return payload;
    });
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });
  },
  { name: 'metrics' },
);
