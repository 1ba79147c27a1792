import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DependencyContainer } from './di/dependency-injection.js';
import { errorHandlerPlugin } from '../plugins/error-handler.js';
import { healthPlugin } from '../plugins/health.js';
import { jsonBodyParserPlugin } from '../plugins/json-body-parser.js';
import { managementPlugin } from '../plugins/management/management-plugin.js';
import { modelAuthPlugin } from '../plugins/model-auth.js';
import { modelListRoutes } from '../plugins/models/model-list-routes.js';
import type { GatewayConfig } from './config/config-schema.js';
import { createGatewayContainer } from './di/create-container.js';
import type { Clock } from './di/injection-tokens.js';
import { createLogger } from './logging/create-logger.js';
import { ModelCatalog } from './routing/model-catalog.js';
import { createStoreBackend } from './store/create-store-backend.js';
import { guardStoreBackend } from './store/guard-store-backend.js';
import type { StoreBackend } from './store/store-backend.js';
import { AccessTimeRecorder } from './tokens/access-time-recorder.js';
import { UserService } from './users/user-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's container: every service the gateway built for it. */
    gateway: DependencyContainer;
  }
}

/** What a caller may supply instead of the defaults. */
export interface BuildAppOptions {
  /** The config file's path; plugin paths resolve against it. */
  configFile?: string;
  /** A pino logger; by default one is made with secret redaction. */
  logger?: FastifyBaseLogger;
  /** An already open store (tests share one between app instances). */
  backend?: StoreBackend;
  clock?: Clock;
}

/**
 * The composition root: opens storage, builds the container, bootstraps users and
 * registers every surface. Returns a ready app that is not listening yet.
 */
export async function buildApp(config: GatewayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? (createLogger() as unknown as FastifyBaseLogger);
  const openedBackend = options.backend ?? (await createStoreBackend(config.storage));
  const backend = guardStoreBackend(openedBackend);
  const app = Fastify({
    loggerInstance: logger,
    trustProxy: config.server.trust_proxy.length > 0 ? config.server.trust_proxy : false,
    bodyLimit: config.server.body_limit_mb * 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    // A client's own request id is kept when it is a plain token; anything else is replaced.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
  });
  const { container, generatedSecretFile } = createGatewayContainer({
    config,
    configFile: options.configFile ?? 'config/gateway.yaml',
    logger,
    backend,
    clock: options.clock,
  });
  app.decorate('gateway', container);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onClose', async () => {
    await container.resolve(AccessTimeRecorder).close();
    if (options.backend === undefined) await backend.close();
  });
  if (generatedSecretFile !== undefined) logger.warn({ file: generatedSecretFile }, 'generated an encryption key; back this file up with the data');

  try {
    const bootstrap = await container.resolve(UserService).bootstrap(config.users, config.storage.data_dir);
    if (bootstrap.generatedTokenFile !== undefined) {
      logger.warn({ file: bootstrap.generatedTokenFile }, 'created the first admin user; its login token is in this file (mode 0600)');
    }
    await app.register(errorHandlerPlugin, { bodyLimitMegabytes: config.server.body_limit_mb });
    await app.register(jsonBodyParserPlugin);
    await app.register(healthPlugin, { backend });
    await app.register(managementPlugin, { container });
    await app.register(modelAuthPlugin, { container });
    await app.register(modelListRoutes, { catalog: new ModelCatalog(config), startedAt: Math.floor(Date.now() / 1000) });
    await app.ready();
  } catch (error) {
    // A failed start must not leave the store's connections open.
    await app.close();
    throw error;
  }
  return app;
}
