import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import type { ChannelActivity } from '../../core/observability/channel-activity.js';
import type { ChannelTester } from '../../core/pipeline/channel-test.js';
import type { Channel } from '../../core/routing/channel.js';
import type { CircuitBreaker } from '../../core/routing/circuit-breaker.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin } from '../auth/route-auth.js';
import { clientAbortSignal } from '../http/client-abort-signal.js';
import { testChannelBody } from './admin-request-schemas.js';
import { envelope, loginRoute as login } from './management-route.js';

/** What the channel routes read. */
export interface ChannelRoutesOptions {
  /** The channels in force (a reload swaps them). */
  channels: () => readonly Channel[];
  breaker: CircuitBreaker;
  activity: ChannelActivity;
  tester: ChannelTester;
  config: GatewayConfig;
  /** How many worker processes serve this gateway (`server.workers` resolved). */
  workers: number;
}

/**
 * Where a channel's circuit state and recent figures come from: the process that answered.
 * Said in every answer, and loudly when other processes serve the same gateway (workers of a
 * cluster, instances on a shared store), since each keeps its own.
 */
function scopeNote(config: GatewayConfig, workers: number): string {
  const own = `circuit states and recent figures are those of the process that answered (pid ${process.pid})`;
  const others = [
    workers > 1 ? `each of the ${workers} workers keeps its own` : undefined,
    config.storage.driver === 'redis' || config.storage.driver === 'postgres' ? `every other gateway instance on this ${config.storage.driver} store keeps its own` : undefined,
  ].filter((part) => part !== undefined);
  return others.length === 0 ? `${own}, the only one serving this gateway` : `${own}; ${others.join(', and ')}: ask each, or read /metrics, for the whole`;
}

/** `GET /api/channel/` and `POST /api/channel/test`, for admins. */
export async function channelRoutes(app: FastifyInstance, options: ChannelRoutesOptions): Promise<void> {
  const { channels, breaker, activity, tester, config, workers } = options;
  const note = scopeNote(config, workers);

  app.get('/api/channel/', login, async (request) => {
    requireAdmin(request);
    const items = channels().map((channel) => ({
      name: channel.name,
      plugin: channel.config.plugin,
      models: [...new Set([...channel.config.models, ...Object.keys(channel.config.model_map)])],
      groups: [...channel.groups],
      priority: channel.priority,
      weight: channel.weight,
      circuit: breaker.stateOf(channel.name),
      recent: activity.summaryOf(channel.name),
    }));
    return envelope({ items, total: items.length, recent_window_seconds: activity.windowSeconds, scope: { kind: 'process', process_id: process.pid, note } });
  });

  app.post('/api/channel/test', login, async (request, reply) => {
    requireAdmin(request);
    const body = parseClientInput(testChannelBody, request.body);
    return envelope(await tester.test({ ...body, signal: clientAbortSignal(reply), requestId: request.id }));
  });
}
