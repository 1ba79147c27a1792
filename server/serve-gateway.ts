import cluster from 'node:cluster';
import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './build-app.js';
import type { GatewayConfig } from '../core/config/config-schema.js';
import { shuttingDown } from '../core/errors/error-codes.js';
import { StartupError } from '../core/errors/startup-error.js';
import { InFlightRequests } from '../core/pipeline/in-flight-requests.js';
import { boundHeapGrowth } from './heap-growth-bound.js';
import { IdleHeapRelease } from './idle-heap-release.js';
import { startBanner } from './start-banner.js';
import { StopRequests } from './stop-requests.js';
import { isGatewayWorker } from './gateway-worker.js';
import { listenThroughCopies, type ListeningCopies } from './listening-copies.js';
import { removePidFile, writePidFile, writeReloadResult } from './reload-files.js';
import { ReloadSignals } from './reload-signals.js';
import { gatewayActor } from '../core/audit/audit-trail.js';

/** How long requests ended at the shutdown deadline get to write their error before the connections close. */
const endingMilliseconds = 1000;

/**
 * Builds the gateway, listens, and serves until asked to stop (see {@link StopRequests}); the
 * one process of `server.workers: 1`, or one worker of several. A stop closes the listener
 * and lets requests in flight finish for `server.shutdown_grace_ms`. Then requests not
 * answered yet get a 503 `server_shutting_down` and streams still open end with an error
 * event in their wire format ({@link InFlightRequests}); the connections still open are
 * closed, and it resolves 0 once the app and its stores are closed. A request to exit at once
 * resolves 1 without waiting. While serving, the old space's growth between collections is
 * bounded ({@link boundHeapGrowth}) and an {@link IdleHeapRelease} gives memory back when the
 * process goes quiet after a busy spell. A stop while starting (a store that does
 * not answer can hold the start up) resolves 0 at once: nothing was served yet. SIGHUP
 * reloads the config file ({@link ReloadSignals}); the process that takes it writes its pid to
 * `storage.data_dir/gateway.pid` while it serves, for `model-gateway reload`.
 */
export async function serveGateway(config: GatewayConfig, configFile: string, logger: Logger): Promise<number> {
  const requests = new StopRequests();
  const reloads = new ReloadSignals(logger);
  // Only the process that takes SIGHUP writes the pid file `model-gateway reload` signals; a worker's primary does.
  const takesSignals = !isGatewayWorker();
  boundHeapGrowth();
  try {
    const starting = startApp(config, configFile, logger);
    // Once the stop has won, a late failure of the start has nobody to tell.
    starting.catch(() => {});
    const started = await Promise.race([starting, requests.graceful.then(() => undefined)]);
    if (started === undefined) {
      logger.warn({ signal: await requests.graceful }, 'asked to stop while starting: exiting');
      return 0;
    }
    const { app, copies } = started;
    if (takesSignals) writePidFile(config.storage);
    reloads.serve(async () => {
      const report = await app.reloader.reload({ via: 'signal', actor: gatewayActor('signal') });
      if (takesSignals) writeReloadResult(config.storage, { pid: process.pid, finished_at: Date.now(), reports: [report], unanswered: 0 });
    });
    const heapRelease = new IdleHeapRelease();
    heapRelease.start();
    const reason = await requests.graceful;
    heapRelease.stop();
    const exitNow = requests.immediate.then((signal) => {
      logger.warn({ signal }, 'second signal: exiting now');
      return 1;
    });
    // No new connection through a copy either, from the moment the server stops listening.
    copies.close();
    return await Promise.race([exitNow, stopGracefully(app, reason, config.server.shutdown_grace_ms, logger)]);
  } finally {
    requests.dispose();
    reloads.dispose();
    if (takesSignals) removePidFile(config.storage);
  }
}

async function startApp(config: GatewayConfig, configFile: string, logger: Logger): Promise<{ app: FastifyInstance; copies: ListeningCopies }> {
  const app = await buildApp(config, { configFile, logger: logger as unknown as FastifyBaseLogger });
  try {
    const address = await app.listen({ host: config.server.host, port: config.server.port });
    // A person at a terminal gets the essentials at a glance; a service manager only the log.
    if (process.stdout.isTTY === true && (cluster.worker === undefined || cluster.worker.id === 1)) process.stdout.write(startBanner(config, { address, generatedTokenFile: app.firstAdminTokenFile }));
  } catch (error) {
    await app.close().catch(() => {});
    throw listenFailure(error, config, configFile);
  }
  // Made in the background: the gateway serves (through its own descriptor) meanwhile.
  const copies = listenThroughCopies(app.server, config.server.accepts_per_turn - 1);
  void copies.ready.then(() => {
    if (copies.count > 0) logger.info({ acceptsPerTurn: copies.count + 1 }, 'new connections: taken in through more descriptors of the listening socket (server.accepts_per_turn)');
  });
  return { app, copies };
}

/** A listen error the operator fixes in the config, as one line naming the key; anything else unchanged. */
function listenFailure(error: unknown, config: GatewayConfig, configFile: string): unknown {
  const { host, port } = config.server;
  const address = `${host}:${port}`;
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    code === 'EADDRINUSE'
      ? `${address} is already in use by another process: set server.port in ${configFile} (the shipped config reads GATEWAY_PORT) to a free port, or stop that process`
      : code === 'EACCES'
        ? `not allowed to listen on ${address} (ports below 1024 need privileges): set server.port in ${configFile} to 1024 or above`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine: set server.host in ${configFile} (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`
          : undefined;
  return message === undefined ? error : new StartupError(message, { cause: error });
}

async function stopGracefully(app: FastifyInstance, reason: string, graceMilliseconds: number, logger: Logger): Promise<number> {
  logger.info({ signal: reason, graceMilliseconds }, 'stopping: no new connections, finishing requests in flight');
  const inFlight = app.gateway.resolve(InFlightRequests);
  const deadline = setTimeout(() => {
    logger.warn({ inFlight: inFlight.size }, 'shutdown deadline passed: ending the requests still in flight with an error, then closing the connections still open');
    void inFlight.endAll(shuttingDown(), endingMilliseconds).then(() => setImmediate(() => app.server.closeAllConnections()));
  }, graceMilliseconds);
  deadline.unref();
  try {
    await app.close();
    logger.info('stopped');
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'error while stopping');
    return 1;
  } finally {
    clearTimeout(deadline);
  }
}
