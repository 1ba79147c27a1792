import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../core/config/config-error.js';
import { configLineFinder } from '../core/config/config-lines.js';
import { GatewayError } from '../core/errors/gateway-error.js';
import { GatewayState } from '../core/reload/gateway-state.js';
import { userInvalidationChannel } from '../core/tokens/token-invalidation.js';
import { configReloadRoutes } from '../plugins/management/config-reload-routes.js';
import { ConfigReloader } from './config-reloader.js';
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
import { ChannelService } from '../core/channels/channel-service.js';
import { startRuntimeChannels } from './runtime-channels.js';
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
import { ConcurrencyLimiter, hasConcurrencyLimits } from '../core/limits/concurrency-limiter.js';
import { hasRateLimits } from '../core/limits/rate-limit-buckets.js';
import { RateLimiter } from '../core/limits/rate-limiter.js';
import { channelCaller } from '../core/pipeline/channel-call.js';
import { ModelRequestPipeline } from '../core/pipeline/model-request-pipeline.js';
import { InFlightRequests } from '../core/pipeline/in-flight-requests.js';
import { checkEncryptionKey } from './encryption-key-check.js';
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
import { signInRoutes } from '../plugins/sign-in/sign-in-routes.js';
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
import { AuditTrail, gatewayActor } from '../core/audit/audit-trail.js';
import { sectionsOf } from '../core/reload/config-changes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's container: every service the gateway built for it. */
    gateway: DependencyContainer;
    /** The 0600 file of the first admin's login token, when this start created that user. */
    firstAdminTokenFile: string | undefined;
    /** Re-reads the config file and swaps what can change (SIGHUP, `POST /api/config/reload`). */
    reloader: ConfigReloader;
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
    await container.resolve(AuditTrail).close();
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
    await app.register(managementPlugin, { tokens: container.resolve(TokenService), users: container.resolve(UserService), usageLog: container.resolve(UsageLog), auditTrail: container.resolve(AuditTrail) });
    await app.register(signInRoutes, { oidc: config.auth.oidc, users: container.resolve(UserService), flowKey: container.resolve(InjectionTokens.signInFlowKey), clock: container.resolve(InjectionTokens.clock) });
    const clock = container.resolve(InjectionTokens.clock);
    // Each channel's recent attempts, for the channel admin API: it hears every request as metrics do.
    const activity = new ChannelActivity(config.providers.map((provider) => provider.name));
    const observed = observeAll([observer, activity]);
    const configFile = options.configFile ?? 'config/gateway.yaml';
    const { state, pipeline, breaker } = await createGatewayState(app, config, configFile, backend, logger, container, observed);
    const channels = () => state.current.channels;
    // What reads a config of its own follows each reload; a request in flight keeps the services it started with.
    state.onReloaded(async ({ report, cause, before, after }) => {
      if (report.status !== 'applied') return;
      activity.setChannels(after.providers.map((provider) => provider.name));
      container.resolve(TokenService).useConfig(after);
      container.resolve(UsageLog).setRetentionDays(after.logs.retention_days);
      const audit = container.resolve(AuditTrail);
      audit.setRetentionDays(after.audit.retention_days);
      // Recorded once, where the reload was asked for (the trail masks the channel keys).
      if (cause.actor !== undefined) {
        await audit.record({ action: 'config.reload', target: { id: configFile, name: basename(configFile) }, before: sectionsOf(before, report.changed), after: sectionsOf(after, report.changed) }, cause.actor);
      }
    });
    const channelService = await startRuntimeChannels({ state, configFile, backend, logger, cipher: container.resolve(InjectionTokens.keyCipher), now: () => clock.now() });
    container.register(ChannelService, { useValue: channelService });
    // Each change through the channel API is on the audit trail before it is answered.
    const auditTrail = container.resolve(AuditTrail);
    channelService.onChange(async ({ action, name, before, after, by }) => {
      await auditTrail.record({ action: `channel.${action}`, target: { id: name, name }, before: before ?? null, after: after ?? null }, by ?? gatewayActor('api'));
    });
    const reloader = new ConfigReloader({ configFile, fromFile: options.configFile !== undefined, state, backend, logger });
    await reloader.listen();
    app.addHook('onClose', async () => reloader.close());
    app.decorate('reloader', reloader);
    await app.register(channelRoutes, { service: channelService, breaker, activity, tester: new ChannelTester(channels, logger, observed), config, workers: resolveWorkerCount(config.server.workers) });
    await app.register(configReloadRoutes, { reloader });
    await app.register(modelListRoutes, { state, startedAt: Math.floor(Date.now() / 1000) });
    await app.register(pricingRoutes, { state });
    circuitStates = () => breaker.states();
    await app.register(chatRoutes, { pipeline, config });
    await app.register(audioRoutes, { pipeline, config });
    await app.register(responsesRoutes, { pipeline, config });
    await app.register(messagesRoutes, { pipeline, config });
    await app.register(imagesRoutes, { pipeline, config });
    await app.register(nativeRoutes, { pipeline, config });
    await app.register(embeddingsRoutes, { pipeline, config });
    const callChannel = channelCaller(channels);
    const tasks = new TaskService(pipeline, callChannel, new TaskRepository(backend), backend, container.resolve(QuotaLedger), config, () => clock.now(), logger, () => state.current.usage);
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
 * Loads every channel's provider plugin and the translators (a bad one fails the start) into
 * the {@link GatewayState} a reload swaps, and builds the pipeline the model routes share over
 * it. The upstream client, media fetcher and providers close with the app.
 */
async function createGatewayState(
  app: FastifyInstance,
  config: GatewayConfig,
  configFile: string,
  backend: StoreBackend,
  logger: FastifyBaseLogger,
  container: DependencyContainer,
  observer: RunObserver,
): Promise<{ state: GatewayState; pipeline: ModelRequestPipeline; breaker: CircuitBreaker }> {
  const http = new UndiciUpstreamHttp();
  const media = new GuardedMediaFetcher(config.security.media);
  app.addHook('onClose', async () => {
    await Promise.all([http.close(), media.close()]);
  });
  const clock = container.resolve(InjectionTokens.clock);
  const breaker = new CircuitBreaker(
    { failureThreshold: config.routing.circuit_breaker.failure_threshold, cooldownMilliseconds: config.routing.circuit_breaker.cooldown_ms },
    () => clock.now(),
  );
  // Kept across reloads: what they hold outlives a config (holds, affinities, conversations, the usage log).
  const ledger = container.resolve(QuotaLedger);
  const affinity = new ChannelAffinity(backend.keyv<string>('affinity'), config.routing.affinity.ttl_ms);
  const conversations = new ResponsesConversationStore(backend.keyv<StoredConversation>('responses-conversations'), config.routing.affinity.ttl_ms);
  const inFlight = container.resolve(InFlightRequests);
  const leases = container.resolve(LeaseKeeper);
  const users = container.resolve(UserService);
  const state = await GatewayState.start(config, {
    configFile,
    breaker,
    createHost: (channel, plugin) => createProviderHost({ http, media, backend, logger, now: () => clock.now() }, plugin.name, channel.name, maxResponseBytesOf(channel, plugin)),
    warn: (path, message) => logger.warn({ path }, message),
    error: (error, message) => logger.error({ err: error }, message),
    compose: (next, channels, previous) => {
      const sameLimits = previous !== undefined && isDeepStrictEqual(previous.config.rate_limits, next.rate_limits);
      return {
        channels,
        breaker,
        catalog: new ModelCatalog(next),
        ledger,
        affinity,
        conversations,
        config: next,
        // Without any rate limit no request has anything to draw or settle: no limiter at all.
        limiter: sameLimits ? previous.limiter : hasRateLimits(next.rate_limits) ? new RateLimiter(backend, next.rate_limits) : undefined,
        concurrency: sameLimits ? previous.concurrency : hasConcurrencyLimits(next.rate_limits) ? new ConcurrencyLimiter(backend, next.rate_limits, leases) : undefined,
        observer,
        inFlight,
        usage: usageLogOf(next, container),
      };
    },
    // The config's users, as a start bootstraps them; a conflict with the store refuses the reload.
    prepare: async (next, previous) => {
      if (isDeepStrictEqual(next.users, previous.users)) return;
      try {
        await users.bootstrap(next.users, next.storage.data_dir);
      } catch (error) {
        if (!GatewayError.is(error)) throw error;
        throw new ConfigError(configFile, [{ path: 'users', message: error.message, line: configLineFinder(configFile)(['users']) }]);
      }
      // A user whose entry changed (role, budgets) is read afresh by every process with its next key.
      const authenticator = container.resolve(TokenAuthenticator);
      for (const entry of next.users) {
        if (isDeepStrictEqual(entry, previous.users.find((user) => user.id === entry.id))) continue;
        authenticator.forgetUser(entry.id);
        await backend.publish(userInvalidationChannel, String(entry.id));
      }
    },
  });
  app.addHook('onClose', async () => state.close());
  return { state, pipeline: new ModelRequestPipeline(state), breaker };
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
