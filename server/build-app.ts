import { join } from 'node:path';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { timeOrderedRequestId } from './time-ordered-request-id.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DependencyContainer } from '../core/di/dependency-injection.js';
import { responsesRoutes } from '../plugins/responses/responses-routes.js';
import { messagesRoutes } from '../plugins/messages/messages-routes.js';
import { imagesRoutes } from '../plugins/images/images-routes.js';
import { videoRoutes } from '../plugins/video/video-routes.js';
import { AssetOwnershipRepository } from '../plugins/assets/asset-ownership-repository.js';
import { assetReferenceGuard } from '../plugins/assets/asset-reference-guard.js';
import { assetsPlugin } from '../plugins/assets/asset-routes.js';
import { TaskPoller } from '../core/tasks/task-poller.js';
import { GatewayMetrics } from '../core/observability/gateway-metrics.js';
import { metricsPlugin } from '../plugins/observability/metrics-plugin.js';
import { answerFrameworkError } from '../plugins/errors/error-handler.js';
import { observeAll, type RunObserver } from '../core/observability/run-observer.js';
import { ChannelActivity } from '../core/observability/channel-activity.js';
import { ChannelTester } from '../core/pipeline/channel-test.js';
import { channelRoutes } from '../plugins/management/channel-routes.js';
import { TaskRepository } from '../core/tasks/task-repository.js';
import { TaskService } from '../core/tasks/task-service.js';
import { chatRoutes } from '../plugins/chat/chat-routes.js';
import { audioRoutes } from '../plugins/audio/audio-routes.js';
import { nativeRoutes } from '../plugins/native/native-routes.js';
import { embeddingsRoutes } from '../plugins/embeddings/embeddings-routes.js';
import { QuotaLedger } from '../core/billing/quota-ledger.js';
import { LeaseKeeper } from '../core/store/lease-keeper.js';
import { GuardedMediaFetcher } from '../core/http/media-fetcher.js';
import { UndiciUpstreamHttp } from '../core/http/upstream-client.js';
import { createProviderHost, maxResponseBytesOf } from '../core/loader/create-provider-host.js';
import { loadProviderPlugins } from '../core/loader/load-provider-plugins.js';
import { loadTranslators } from '../core/loader/load-translators.js';
import { ConcurrencyLimiter, hasConcurrencyLimits } from '../core/limits/concurrency-limiter.js';
import { hasRateLimits } from '../core/limits/rate-limit-buckets.js';
import { RateLimiter } from '../core/limits/rate-limiter.js';
import { channelCaller, type CallChannel } from '../core/pipeline/channel-call.js';
import { ModelRequestPipeline } from '../core/pipeline/model-request-pipeline.js';
import { InFlightRequests } from '../core/pipeline/in-flight-requests.js';
import { checkEncryptionKey } from './encryption-key-check.js';
import { Channel } from '../core/routing/channel.js';
import { ChannelAffinity } from '../core/routing/channel-affinity.js';
import { ResponsesConversationStore, type StoredConversation } from '../core/conversations/responses-conversation-store.js';
import { CircuitBreaker } from '../core/routing/circuit-breaker.js';
import { errorHandlerPlugin } from '../plugins/errors/error-handler.js';
import { bodyLimitPlugin } from '../plugins/http/body-limit.js';
import { inFlightLimitPlugin } from '../plugins/http/in-flight-limit.js';
import { lingeringClosePlugin } from '../plugins/http/lingering-close.js';
import { clientTimeoutOptions } from './client-timeouts.js';
import { ClusterWorkerMessageBus } from './cluster-store-messages.js';
import { isGatewayWorker } from './gateway-worker.js';
import { resolveWorkerCount } from './worker-count.js';
import { healthPlugin } from '../plugins/health/health-routes.js';
import { jsonBodyParserPlugin } from '../plugins/http/json-body-parser.js';
import { managementPlugin } from '../plugins/management/management-plugin.js';
import { requestLogLinePlugin } from '../plugins/http/request-log-line.js';
import { routeAuthPlugin } from '../plugins/auth/route-auth.js';
import { AuthFailureLimiter } from '../core/security/auth-failure-limiter.js';
import { modelListRoutes } from '../plugins/models/model-list-routes.js';
import { pricingRoutes } from '../plugins/models/pricing-routes.js';
import { consoleRoutes } from '../plugins/console/console-routes.js';
import { packageRoot } from '../core/config/package-root.js';
import type { GatewayConfig } from '../core/config/config-schema.js';
import { createGatewayContainer } from './create-container.js';
import { InjectionTokens, type Clock } from '../core/di/injection-tokens.js';
import { containsSecret, createLogger } from '../core/logging/create-logger.js';
import { operatorSecrets, secretValuesOf } from '../core/security/secret-values.js';
import { ModelCatalog } from '../core/routing/model-catalog.js';
import { createStoreBackend } from '../core/store/create-store-backend.js';
import { guardStoreBackend } from '../core/store/guard-store-backend.js';
import type { StoreBackend } from '../core/store/store-backend.js';
import { AccessTimeRecorder } from '../core/tokens/access-time-recorder.js';
import { TokenAuthenticator } from '../core/tokens/token-authenticator.js';
import { TokenService } from '../core/tokens/token-service.js';
import { UserService } from '../core/users/user-service.js';
import { UsageLog } from '../core/usage/usage-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's container: every service the gateway built for it. */
    gateway: DependencyContainer;
    /** The 0600 file of the first admin's login token, when this start created that user. */
    firstAdminTokenFile: string | undefined;
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
  /** The built web console's folder; by default `dist/console` of the package. */
  consoleDirectory?: string;
}

/**
 * The composition root: opens storage, builds the container, bootstraps users and
 * registers every surface. Returns a ready app that is not listening yet.
 */
export async function buildApp(config: GatewayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // Before anything can log or answer: from here on no channel key leaves for a client or a log.
  operatorSecrets.add(secretValuesOf(config));
  const logger = options.logger ?? (createLogger() as unknown as FastifyBaseLogger);
  // A worker of several shares the SQLite file with the others, and tells them through the primary.
  const createMessageBus = isGatewayWorker() ? () => new ClusterWorkerMessageBus() : undefined;
  const openedBackend = options.backend ?? (await createStoreBackend(config.storage, { logger, createMessageBus }));
  const backend = guardStoreBackend(openedBackend);
  const app = Fastify({
    loggerInstance: logger,
    // One line per request, not fastify's two: see requestLogLinePlugin.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.server.trust_proxy.length > 0 ? config.server.trust_proxy : false,
    bodyLimit: config.server.body_limit_mb * 1024 * 1024,
    ...clientTimeoutOptions(config.server),
    return503OnClosing: true,
    // Errors of the router itself (bad percent-encoding, over-long segments) answer in the route's dialect too.
    frameworkErrors: answerFrameworkError,
    forceCloseConnections: 'idle',
    // Spellings of a path that name the same route reach it (and its auth guard and dialect):
    // `//v1//models`, `/V1/Models` and `/v1/models/` as `/v1/models`, and `/api/token` as
    // `/api/token/`, as percent-encoded paths already do.
    routerOptions: { ignoreDuplicateSlashes: true, caseSensitive: false, ignoreTrailingSlash: true },
    requestIdHeader: false,
    schemaController: lazySchemaCompilers(),
    // A client's own request id is kept when it is a plain token; anything else is replaced,
    // and so is one shaped like a credential: the id is on every log line of the request. A
    // new one is time-ordered (server/time-ordered-request-id.ts).
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) && !containsSecret(given) ? given : timeOrderedRequestId();
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
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    await container.resolve(UsageLog).close();
    await container.resolve(AccessTimeRecorder).close();
    container.resolve(QuotaLedger).close();
    await container.resolve(LeaseKeeper).close();
    if (options.backend === undefined) await backend.close();
  });
  if (generatedSecretFile !== undefined) logger.warn({ file: generatedSecretFile }, 'generated an encryption key; back this file up with the data');

  try {
    await checkEncryptionKey(
      backend,
      container.resolve(InjectionTokens.keyCipher),
      container.resolve(InjectionTokens.userRepository),
      container.resolve(InjectionTokens.tokenRepository),
    );
    const bootstrap = await container.resolve(UserService).bootstrap(config.users, config.storage.data_dir);
    if (bootstrap.generatedTokenFile !== undefined) {
      logger.warn({ file: bootstrap.generatedTokenFile }, 'created the first admin user; its login token is in this file (mode 0600)');
    }
    app.decorate('firstAdminTokenFile', bootstrap.generatedTokenFile);
    await app.register(errorHandlerPlugin, { bodyLimitMegabytes: config.server.body_limit_mb });
    await app.register(requestLogLinePlugin);
    // Before every route: its onRoute hook checks and guards each route's declared auth.
    await app.register(routeAuthPlugin, {
      authenticator: container.resolve(TokenAuthenticator),
      users: container.resolve(UserService),
      failures: new AuthFailureLimiter(config.security.auth_failures, backend, container.resolve(InjectionTokens.clock)),
    });
    // The breaker is built with the channels below; until then no circuit has a state.
    let circuitStates: () => Iterable<[string, 'closed' | 'open' | 'half-open']> = () => [];
    const inFlight = container.resolve(InFlightRequests);
    const metrics = new GatewayMetrics(() => circuitStates(), () => inFlight.admitted);
    // After the auth plugin, before every route: the check goes in front of the API key guard.
    await app.register(inFlightLimitPlugin, { inFlight, maxInFlight: config.server.max_in_flight, refused: () => metrics.refusedOverload() });
    await app.register(bodyLimitPlugin);
    await app.register(lingeringClosePlugin, {
      lingerMilliseconds: config.server.lingering_close_ms,
      maxBytes: config.server.lingering_close_max_mb * 1024 * 1024,
    });
        await app.register(jsonBodyParserPlugin, { maxDepth: config.server.max_json_depth });
    await app.register(healthPlugin, { backend });
    await app.register(metricsPlugin, { metrics, groupWorker: isGatewayWorker() });
    const observer = await observerFor(app, config, metrics);
    await app.register(managementPlugin, { tokens: container.resolve(TokenService), users: container.resolve(UserService), usageLog: container.resolve(UsageLog) });
    const catalog = new ModelCatalog(config);
    // Each channel's recent attempts, for the channel admin API: it hears every request as metrics do.
    const activity = new ChannelActivity(config.providers.map((provider) => provider.name));
    const observed = observeAll([observer, activity]);
    const { pipeline, breaker, callChannel, channels } = await createModelRequestPipeline(app, config, options.configFile ?? 'config/gateway.yaml', backend, logger, container, catalog, observed);
    await app.register(channelRoutes, { channels, breaker, activity, tester: new ChannelTester(channels, logger, observed), config, workers: resolveWorkerCount(config.server.workers) });
    await app.register(modelListRoutes, { catalog, channels, startedAt: Math.floor(Date.now() / 1000) });
    await app.register(pricingRoutes, { config, catalog, channels });
    circuitStates = () => breaker.states();
    await app.register(chatRoutes, { pipeline, config });
    await app.register(audioRoutes, { pipeline, config });
    await app.register(responsesRoutes, { pipeline, config });
    await app.register(messagesRoutes, { pipeline, config });
    await app.register(imagesRoutes, { pipeline, config });
    await app.register(nativeRoutes, { pipeline, config });
    await app.register(embeddingsRoutes, { pipeline, config });
    const clock = container.resolve(InjectionTokens.clock);
    const tasks = new TaskService(pipeline, callChannel, new TaskRepository(backend), backend, container.resolve(QuotaLedger), config, () => clock.now(), logger, usageLogOf(config, container));
    const assetOwnership = new AssetOwnershipRepository(backend);
    await app.register(videoRoutes, { tasks, config, submissionChecks: [assetReferenceGuard(assetOwnership)] });
    await app.register(assetsPlugin, { pipeline, callChannel, config, backend, repository: assetOwnership });
    await app.register(consoleRoutes, { directory: options.consoleDirectory ?? join(packageRoot(), 'dist', 'console') });
    const poller = new TaskPoller(tasks, config.tasks.background_poll_ms);
    app.addHook('onReady', async () => poller.start());
    app.addHook('onClose', async () => poller.stop());
    await app.ready();
  } catch (error) {
    // A failed start must not leave the store's connections open.
    await app.close();
    throw error;
  }
  return app;
}

/**
 * Loads every channel's provider plugin and the translators (a bad one fails the start) and builds the pipeline
 * the model routes share, and the channel calls tasks are asked about through. The upstream client, media fetcher and providers close with the app.
 */
async function createModelRequestPipeline(
  app: FastifyInstance,
  config: GatewayConfig,
  configFile: string,
  backend: StoreBackend,
  logger: FastifyBaseLogger,
  container: DependencyContainer,
  catalog: ModelCatalog,
  observer: RunObserver,
): Promise<{ pipeline: ModelRequestPipeline; breaker: CircuitBreaker; callChannel: CallChannel; channels: readonly Channel[] }> {
  const http = new UndiciUpstreamHttp();
  const media = new GuardedMediaFetcher(config.security.media);
  app.addHook('onClose', async () => {
    await Promise.all([http.close(), media.close()]);
  });
  const clock = container.resolve(InjectionTokens.clock);
  const loaded = await loadProviderPlugins(
    config.providers,
    configFile,
    (channel, plugin) => createProviderHost({ http, media, backend, logger, now: () => clock.now() }, plugin.name, channel.name, maxResponseBytesOf(channel, plugin)),
    (path, message) => logger.warn({ path }, message),
  );
  app.addHook('onClose', async () => {
    await Promise.all(loaded.map((channel) => channel.provider.close?.()));
  });
  const breaker = new CircuitBreaker(
    { failureThreshold: config.routing.circuit_breaker.failure_threshold, cooldownMilliseconds: config.routing.circuit_breaker.cooldown_ms },
    () => clock.now(),
  );
  const translators = await loadTranslators(config.translators, configFile);
  const channels = loaded.map((channel) => new Channel(channel, translators));
  const pipeline = new ModelRequestPipeline({
    channels,
    breaker,
    catalog,
    ledger: container.resolve(QuotaLedger),
    affinity: new ChannelAffinity(backend.keyv<string>('affinity'), config.routing.affinity.ttl_ms),
    conversations: new ResponsesConversationStore(backend.keyv<StoredConversation>('responses-conversations'), config.routing.affinity.ttl_ms),
    config,
    // Without any rate limit no request has anything to draw or settle: no limiter at all.
    limiter: hasRateLimits(config.rate_limits) ? new RateLimiter(backend, config.rate_limits) : undefined,
    concurrency: hasConcurrencyLimits(config.rate_limits) ? new ConcurrencyLimiter(backend, config.rate_limits, container.resolve(LeaseKeeper)) : undefined,
    observer,
    inFlight: container.resolve(InFlightRequests),
    usage: usageLogOf(config, container),
  });
  return { pipeline, breaker, callChannel: channelCaller(channels), channels };
}

/** Where model requests and video tasks write their usage records: nowhere with `logs.enabled: false`, so they build none. */
function usageLogOf(config: GatewayConfig, container: DependencyContainer): UsageLog | undefined {
  return config.logs.enabled ? container.resolve(UsageLog) : undefined;
}

/**
 * Who hears how model requests end: the metrics, and with `observability.tracing.enabled`
 * also the tracer, whose batched spans are flushed when the app closes.
 */
async function observerFor(app: FastifyInstance, config: GatewayConfig, metrics: GatewayMetrics): Promise<RunObserver> {
  const tracing = config.observability.tracing;
  if (!tracing.enabled) return metrics;
  // Loaded only when tracing is on: the OpenTelemetry SDK and exporter are some 250 modules
  // (about 10 MiB of resident memory) a gateway without tracing never uses.
  const { RequestTracer } = await import('../core/observability/request-tracer.js');
  const tracer = new RequestTracer({ serviceName: tracing.service_name, endpoint: tracing.endpoint, sampleRatio: tracing.sample_ratio });
  app.addHook('onClose', async () => tracer.close());
  return {
    requestFinished: (request) => {
      metrics.requestFinished(request);
      tracer.modelRequest(request);
    },
    settled: (settlement) => metrics.settled(settlement),
  };
}
