import cluster, { type Address, type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { ClusterMetricsPrimary } from '../core/observability/cluster-metrics-primary.js';
import { ClusterStoreMessageRelay } from './cluster-store-messages.js';
import { stopMessage } from './stop-message.js';
import { gatewayWorkerVariable } from './gateway-worker.js';
import type { GatewayConfig } from '../core/config/config-schema.js';
import { ConfigError } from '../core/config/config-error.js';
import type { ReloadReport } from '../core/reload/gateway-state.js';
import { checkConfigFile } from './check-config-file.js';
import { describeReload } from './config-reloader.js';
import { removePidFile, writePidFile, writeReloadResult } from './reload-files.js';
import { isReloadedMessage, reloadMessage } from './reload-messages.js';

/** What {@link runClusterPrimary} needs. */
export interface ClusterOptions {
  /** Worker processes to keep running. */
  workers: number;
  /** The entry script each worker runs, and its arguments (a `start` of the same config). */
  exec: string;
  args: readonly string[];
  /**
   * Start the first worker alone and the others once it listens: when it may create the first
   * admin user or the encryption key file, the others must find it rather than create one each.
   */
  firstWorkerAlone: boolean;
  /** How long workers may take to stop (their grace, plus closing their stores) before they are killed. */
  stopDeadlineMilliseconds: number;
  logger: Logger;
  /** The config file the workers run: SIGHUP checks it before every worker is told to reload it. */
  configFile: string;
  /** Where the pid file and the last reload's result go (`storage.data_dir`). */
  storage: Pick<GatewayConfig['storage'], 'data_dir'>;
}

/** How long the workers get to answer a reload. */
const reloadAnswerMilliseconds = 30_000;

/** Unexpected exits counted for the restart delay: 100 ms after the first, doubling with each more in this window. */
const restartWindowMilliseconds = 60_000;
const longestRestartDelayMilliseconds = 30_000;

interface WorkerEntry {
  worker: Worker;
  listening: boolean;
  /** Sent SIGTERM because it was not serving yet: however it ends, nothing it served is lost. */
  terminated: boolean;
}

/**
 * The primary of `server.workers` > 1: it serves nothing itself and opens no store. It forks
 * the workers (each a `start` of the same config that listens on the shared port; node:cluster
 * hands connections out in turn), the first one alone when it may create the first admin user.
 * A worker that exits while the gateway serves is replaced, after a delay that grows while
 * exits repeat; a worker that fails while the gateway starts fails the start. SIGTERM or
 * SIGINT asks every worker for a graceful stop; the promise resolves once all have exited: 0
 * when all stopped cleanly, else 1. A second signal kills the workers and resolves 1 at once.
 * Meanwhile it answers the workers' scrapes of `/metrics` with every worker's metrics
 * ({@link ClusterMetricsPrimary}), and hands each worker's store messages (a token changed) to
 * the others ({@link ClusterStoreMessageRelay}): on SQLite it is their only broker. SIGHUP
 * checks the config file as start would and, when it passes, tells every worker to reload it,
 * then logs one line with what they did (and writes it for `model-gateway reload`).
 */
export function runClusterPrimary(options: ClusterOptions): Promise<number> {
  return new ClusterSupervisor(options).run();
}

class ClusterSupervisor {
  readonly #options: ClusterOptions;
  readonly #workers = new Map<number, WorkerEntry>();
  readonly #restartTimers = new Set<NodeJS.Timeout>();
  #phase: 'starting' | 'serving' | 'stopping' = 'starting';
  #recentExits: number[] = [];
  #failed = false;
  #stopDeadline: NodeJS.Timeout | undefined;
  #resolve: (code: number) => void = () => {};
  readonly #metrics = new ClusterMetricsPrimary(() => [...this.#workers.values()].filter((entry) => entry.listening).map((entry) => entry.worker));
  readonly #storeMessages = new ClusterStoreMessageRelay();
  #reloads = 0;
  #reloading: Promise<void> | undefined;
  #reloadAgain = false;

  constructor(options: ClusterOptions) {
    this.#options = options;
  }

  run(): Promise<number> {
    const { workers, exec, args, logger } = this.#options;
    cluster.setupPrimary({ exec, args: [...args] });
    this.#metrics.attach();
    this.#storeMessages.attach();
    cluster.on('listening', this.#onListening);
    cluster.on('exit', this.#onExit);
    process.on('SIGTERM', this.#onSignal);
    process.on('SIGINT', this.#onSignal);
    process.on('SIGHUP', this.#onReloadSignal);
    writePidFile(this.#options.storage);
    logger.info({ workers }, 'starting worker processes');
    const starting = this.#options.firstWorkerAlone ? 1 : workers;
    for (let count = 0; count < starting; count += 1) this.#fork();
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  #fork(): void {
    const worker = cluster.fork({ [gatewayWorkerVariable]: '1' });
    worker.on('error', (error) => this.#options.logger.warn({ err: error, worker: worker.id }, 'could not reach a worker'));
    this.#workers.set(worker.id, { worker, listening: false, terminated: false });
  }

  readonly #onListening = (worker: Worker, address: Address) => {
    const entry = this.#workers.get(worker.id);
    if (entry === undefined) return;
    entry.listening = true;
    const { logger, workers } = this.#options;
    logger.info({ worker: worker.id, workerPid: worker.process.pid, port: address.port }, 'worker listening');
    if (this.#phase !== 'starting') return;
    // The others, when the first started alone.
    for (let count = this.#workers.size; count < workers; count += 1) this.#fork();
    if ([...this.#workers.values()].filter((candidate) => candidate.listening).length === workers) {
      this.#phase = 'serving';
      logger.info({ workers, port: address.port }, 'every worker is listening');
    }
  };

  readonly #onExit = (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    const entry = this.#workers.get(worker.id);
    if (entry === undefined) return;
    this.#workers.delete(worker.id);
    const { logger } = this.#options;
    const details = { worker: worker.id, workerPid: worker.process.pid, code, signal };
    if (this.#phase === 'stopping') {
      if (code !== 0 && !entry.terminated) {
        this.#failed = true;
        logger.warn(details, 'a worker did not stop cleanly');
      }
      if (this.#workers.size === 0) this.#finish(true);
      return;
    }
    if (this.#phase === 'starting') {
      logger.error(details, 'a worker exited while the gateway was starting; stopping');
      this.#failed = true;
      this.#stop('start failed');
      return;
    }
    const now = Date.now();
    this.#recentExits = [...this.#recentExits.filter((time) => now - time < restartWindowMilliseconds), now];
    const delay = Math.min(100 * 2 ** (this.#recentExits.length - 1), longestRestartDelayMilliseconds);
    logger.error({ ...details, restartInMilliseconds: delay }, 'a worker exited unexpectedly; starting a replacement');
    const timer = setTimeout(() => {
      this.#restartTimers.delete(timer);
      this.#fork();
    }, delay);
    this.#restartTimers.add(timer);
  };

  readonly #onSignal = (signal: NodeJS.Signals) => this.#stop(signal);

  readonly #onReloadSignal = () => {
    if (this.#phase === 'stopping') return;
    // One more reload after the one running covers every SIGHUP that came meanwhile.
    if (this.#reloading !== undefined) {
      this.#reloadAgain = true;
      return;
    }
    this.#reloading = this.#reload()
      .catch((error: unknown) => this.#options.logger.error({ err: error }, 'config reload failed'))
      .finally(() => {
        this.#reloading = undefined;
        if (this.#reloadAgain) {
          this.#reloadAgain = false;
          this.#onReloadSignal();
        }
      });
  };

  /** Checks the file; when it passes, every listening worker reloads it and answers with its report. */
  async #reload(): Promise<void> {
    const { logger, configFile, storage } = this.#options;
    try {
      await checkConfigFile(configFile);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const report: ReloadReport = { status: 'refused', changed: [], channels: { added: [], removed: [], changed: [] }, needs_restart: [], problems: [...error.problems] };
      logger.warn({ via: 'signal', file: configFile }, `config reload refused, no worker was told, nothing changed: ${describeReload(report)}`);
      writeReloadResult(storage, { pid: process.pid, finished_at: Date.now(), reports: [report], unanswered: 0 });
      return;
    }
    const id = (this.#reloads += 1);
    const workers = [...this.#workers.values()].filter((entry) => entry.listening).map((entry) => entry.worker);
    const reports = await new Promise<ReloadReport[]>((resolve) => {
      const answered = new Map<number, ReloadReport>();
      const finish = () => {
        clearTimeout(timer);
        cluster.off('message', onMessage);
        resolve([...answered.values()]);
      };
      const onMessage = (worker: Worker, message: unknown) => {
        if (!isReloadedMessage(message) || message.id !== id) return;
        answered.set(worker.id, message.report);
        if (answered.size === workers.length) finish();
      };
      const timer = setTimeout(finish, reloadAnswerMilliseconds);
      cluster.on('message', onMessage);
      workers.forEach((worker, index) => worker.send(reloadMessage(id, index === 0), () => {}));
      if (workers.length === 0) finish();
    });
    const unanswered = workers.length - reports.length;
    const first = reports.find((report) => report.status === 'refused') ?? reports[0];
    const summary = first === undefined ? 'no worker answered' : describeReload(first);
    const details = { via: 'signal', file: configFile, workers: workers.length, answered: reports.length, needsRestart: first?.needs_restart ?? [] };
    if (unanswered > 0 || first?.status === 'refused') logger.warn(details, `config reload: ${reports.length} of ${workers.length} workers reloaded: ${summary}`);
    else logger.info(details, `config reloaded by every worker (${workers.length}): ${summary}`);
    writeReloadResult(storage, { pid: process.pid, finished_at: Date.now(), reports, unanswered });
  }

  #stop(reason: string): void {
    const { logger } = this.#options;
    if (this.#phase === 'stopping') {
      logger.warn({ signal: reason }, 'second signal: killing the workers now');
      for (const { worker } of this.#workers.values()) worker.process.kill('SIGKILL');
      this.#failed = true;
      this.#finish(false);
      return;
    }
    this.#phase = 'stopping';
    for (const timer of this.#restartTimers) clearTimeout(timer);
    this.#restartTimers.clear();
    logger.info({ signal: reason, workers: this.#workers.size }, 'stopping: asking every worker to finish its requests');
    for (const entry of this.#workers.values()) {
      // A worker that is not serving yet may not listen for messages yet either; SIGTERM stops it either way.
      if (entry.listening) entry.worker.send(stopMessage(false), (error: Error | null) => error && this.#terminate(entry));
      else this.#terminate(entry);
    }
    this.#stopDeadline = setTimeout(() => {
      logger.warn({ workers: this.#workers.size }, 'workers did not stop in time; killing them');
      this.#failed = true;
      for (const { worker } of this.#workers.values()) worker.process.kill('SIGKILL');
    }, this.#options.stopDeadlineMilliseconds);
    if (this.#workers.size === 0) this.#finish(true);
  }

  #terminate(entry: WorkerEntry): void {
    entry.terminated = true;
    entry.worker.process.kill('SIGTERM');
  }

  /** Resolves the run; `stopped` says the workers have all exited (not killed and left behind). */
  #finish(stopped: boolean): void {
    clearTimeout(this.#stopDeadline);
    this.#metrics.detach();
    this.#storeMessages.detach();
    cluster.off('listening', this.#onListening);
    cluster.off('exit', this.#onExit);
    process.off('SIGTERM', this.#onSignal);
    process.off('SIGINT', this.#onSignal);
    process.off('SIGHUP', this.#onReloadSignal);
    removePidFile(this.#options.storage);
    if (stopped) this.#options.logger.info('stopped');
    this.#resolve(this.#failed ? 1 : 0);
  }
}
