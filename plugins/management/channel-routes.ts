import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maskedChannelEntry, type ChannelService, type ListedChannel } from '../../core/channels/channel-service.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import type { ChannelActivity } from '../../core/observability/channel-activity.js';
import type { ChannelTester } from '../../core/pipeline/channel-test.js';
import type { CircuitBreaker } from '../../core/routing/circuit-breaker.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin } from '../auth/route-auth.js';
import { clientAbortSignal } from '../http/client-abort-signal.js';
import { channelNameParams, createChannelBody, testChannelBody, updateChannelBody } from './admin-request-schemas.js';
import { auditActorOf } from './audit-actor.js';
import { envelope, loginRoute as login } from './management-route.js';

/** What the channel routes read. */
export interface ChannelRoutesOptions {
  service: ChannelService;
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

/** The admin who asked, for the change listeners (the audit trail). */
const authorOf = (request: FastifyRequest) => {
  requireAdmin(request);
  return auditActorOf(request);
};

/**
 * The channel API, for admins: the list of every channel (the config file's and the store's),
 * creating, changing and deleting stored channels, enabling and disabling any, and a test
 * request through one.
 */
export async function channelRoutes(app: FastifyInstance, options: ChannelRoutesOptions): Promise<void> {
  const { service, breaker, activity, tester, config, workers } = options;
  const note = scopeNote(config, workers);
  /** A channel as the API shows it: its entry with every credential masked, where it comes from, and how it fares in this process. */
  const present = ({ entry, source, enabled, created_time, updated_time }: ListedChannel) => ({
    name: entry.name,
    source,
    enabled,
    plugin: entry.plugin,
    models: [...new Set([...entry.models, ...Object.keys(entry.model_map)])],
    groups: [...entry.groups],
    priority: entry.priority,
    weight: entry.weight,
    circuit: breaker.stateOf(entry.name),
    recent: activity.summaryOf(entry.name),
    config: maskedChannelEntry(entry),
    ...(created_time === undefined ? {} : { created_time, updated_time }),
  });

  app.get('/api/channel/', login, async (request) => {
    requireAdmin(request);
    const items = (await service.list()).map(present);
    return envelope({ items, total: items.length, recent_window_seconds: activity.windowSeconds, scope: { kind: 'process', process_id: process.pid, note } });
  });

  app.post('/api/channel/', login, async (request) => {
    const by = authorOf(request);
    const { enabled, ...entry } = parseClientInput(createChannelBody, request.body);
    return envelope(present(await service.create(entry, enabled ?? true, by)));
  });

  app.put('/api/channel/', login, async (request) => {
    const by = authorOf(request);
    const { name, enabled, ...fields } = parseClientInput(updateChannelBody, request.body);
    const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    return envelope(present(await service.update(name, changes, enabled, by)));
  });

  app.delete('/api/channel/:name', login, async (request) => {
    const by = authorOf(request);
    const { name } = parseClientInput(channelNameParams, request.params, 'path');
    await service.delete(name, by);
    return envelope();
  });

  app.post('/api/channel/test', login, async (request, reply) => {
    requireAdmin(request);
    const body = parseClientInput(testChannelBody, request.body);
    return envelope(await tester.test({ ...body, signal: clientAbortSignal(reply), requestId: request.id }));
  });
}
