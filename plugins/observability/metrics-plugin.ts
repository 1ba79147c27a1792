import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { ClusterMetricsWorker } from '../../core/observability/cluster-metrics-worker.js';
import type { GatewayMetrics } from '../../core/observability/gateway-metrics.js';

/**
 * `GET /metrics` in the Prometheus text format, and the HTTP side of the metrics: every
 * response by route (the route's pattern, so ids do not explode the label set) and status,
 * and the streams open to clients (an SSE body counts from its headers until its connection
 * closes). The route takes no key: expose it only where the scraper can reach it.
 *
 * In a worker of `server.workers` > 1 the answer is the whole group's, aggregated by the
 * primary (see `ClusterMetricsPrimary`), whichever worker takes the scrape; when the primary
 * cannot collect every worker in time, it is a 503, so Prometheus records a failed scrape
 * rather than one worker's counters, which would look like a reset. `groupWorker` says whether
 * this process is such a worker; the server decides, as only it knows how it was started.
 */
export const metricsPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { metrics: GatewayMetrics; groupWorker: boolean }) => {
    const { metrics } = options;
    const { registry } = metrics;
    const group = options.groupWorker ? new ClusterMetricsWorker(registry) : undefined;
    if (group !== undefined) app.addHook('onClose', async () => group.dispose());
    app.get('/metrics', { config: { auth: 'none' } }, async (request, reply) => {
      if (group === undefined) return reply.type(registry.contentType).send(await registry.metrics());
      try {
        return reply.type(registry.contentType).send(await group.groupMetrics());
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        request.log.warn({ problem }, "could not collect every worker's metrics; answering 503");
        return reply.code(503).type('text/plain; charset=utf-8').send(`# the metrics of every worker could not be collected: ${problem}\n`);
      }
    });
    // Callback hooks, not async ones: they run on every response and have nothing to await.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (payload instanceof Readable && String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
        metrics.streamOpened();
        reply.raw.once('close', () => metrics.streamClosed());
      }
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: 'metrics' },
);
