import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, formatConfigProblem } from '../core/config/config-error.js';
import { loadConfigFile } from '../core/config/load-config.js';
import type { GatewayState, ReloadCause, ReloadReport } from '../core/reload/gateway-state.js';
import { randomAlphanumeric } from '../core/security/random-string.js';
import { missedMessages, type StoreBackend } from '../core/store/store-backend.js';
import { isReloadMessage, reloadedMessage } from './reload-messages.js';
import { assertWorkersFitStorage } from './worker-storage-check.js';
import { gatewayActor } from '../core/audit/audit-trail.js';

/** The store channel on which an API reload asks every other instance (and worker) to reload its own file. */
export const configReloadChannel = 'config-reload';

/** What a {@link ConfigReloader} works with. */
export interface ConfigReloaderParts {
  configFile: string;
  /** False for an app built from a config object with no file of its own (an embedding, a test): it has nothing to re-read, so it refuses a reload and hears none. */
  fromFile: boolean;
  state: GatewayState;
  backend: StoreBackend;
  logger: FastifyBaseLogger;
}

/**
 * Re-reads the config file and puts it in force through the {@link GatewayState}: the file
 * must pass every check `start` makes (read and schema, workers and storage, then in the
 * state plugins, translators and prices) or nothing changes. Each reload writes one log
 * line: what changed (sections, channels added, removed and changed), the keys that need a
 * restart, or the problems by path and line.
 *
 * It also answers the two ways other processes ask: a reload announced on the store
 * ({@link configReloadChannel}, by another instance's or worker's API reload), and, in a worker
 * of the gateway's own cluster, the primary's reload message after its SIGHUP, which it
 * answers with its report.
 */
export class ConfigReloader {
  readonly #parts: ConfigReloaderParts;
  /** Tells this process's own announcements apart from the others'. */
  readonly #origin = randomAlphanumeric(16);
  readonly #onPrimaryMessage = (message: unknown) => {
    if (!isReloadMessage(message)) return;
    void this.reload({ via: 'primary', actor: message.audit === true ? gatewayActor('signal') : undefined }).then(
      (report) => process.send?.(reloadedMessage(message.id, report)),
      (error: unknown) => this.#parts.logger.error({ err: error }, 'config reload failed'),
    );
  };

  constructor(parts: ConfigReloaderParts) {
    this.#parts = parts;
  }

  /** The state the reloads swap. */
  get state(): GatewayState {
    return this.#parts.state;
  }

  /** Starts hearing the other processes' reloads (the store's announcements, the cluster primary's messages). */
  async listen(): Promise<void> {
    if (!this.#parts.fromFile) return;
    await this.#parts.backend.subscribe(configReloadChannel, (message) => {
      // A link that came back may have missed an announcement: reloading an unchanged file changes nothing.
      if (message !== missedMessages && message === this.#origin) return;
      void this.reload({ via: 'instance' }).catch((error: unknown) => this.#parts.logger.error({ err: error }, 'config reload failed'));
    });
    if (cluster.isWorker) process.on('message', this.#onPrimaryMessage);
  }

  /** Stops hearing the cluster primary (the store's subscription ends with the store). */
  close(): void {
    process.off('message', this.#onPrimaryMessage);
  }

  /** Reloads this process's config file; resolves with what it did (a broken file: `refused`, with its problems). */
  async reload(cause: ReloadCause): Promise<ReloadReport> {
    const { configFile, state, logger } = this.#parts;
    let report: ReloadReport;
    try {
      if (!this.#parts.fromFile) throw new ConfigError(configFile, [{ path: '', message: 'this gateway was built from a config object, not a file: there is no file to reload' }]);
      const { config } = loadConfigFile(configFile);
      assertWorkersFitStorage(config, configFile);
      report = await state.apply(config, cause);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      report = { status: 'refused', changed: [], channels: { added: [], removed: [], changed: [] }, needs_restart: [], problems: [...error.problems] };
    }
    logReload(logger, configFile, cause, report);
    return report;
  }

  /**
   * Reloads here, then, unless this file was refused, asks every other process on the store to
   * reload its own file: the other workers of this cluster and every other instance. Resolves
   * with this process's report; the others log their own.
   */
  async reloadEverywhere(cause: ReloadCause): Promise<ReloadReport> {
    const report = await this.reload(cause);
    if (report.status !== 'refused') await this.#parts.backend.publish(configReloadChannel, this.#origin);
    return report;
  }
}

/** What a reload did, in one line: `pricing, providers changed; channels added: b; needs a restart (not applied): server.port`. */
export function describeReload(report: ReloadReport): string {
  const { status, changed, channels, needs_restart: needsRestart, problems } = report;
  if (status === 'refused') return problems.map(formatConfigProblem).join('; ');
  const parts = [status === 'unchanged' ? 'nothing to change' : `${changed.join(', ')} changed`];
  if (channels.added.length > 0) parts.push(`channels added: ${channels.added.join(', ')}`);
  if (channels.removed.length > 0) parts.push(`channels removed: ${channels.removed.join(', ')}`);
  if (channels.changed.length > 0) parts.push(`channels changed: ${channels.changed.join(', ')}`);
  if (needsRestart.length > 0) parts.push(`needs a restart (not applied): ${needsRestart.join(', ')}`);
  return parts.join('; ');
}

/** The one log line of a reload. */
function logReload(logger: FastifyBaseLogger, configFile: string, cause: ReloadCause, report: ReloadReport): void {
  const { status, changed, channels, needs_restart: needsRestart, problems } = report;
  const details = {
    via: cause.via,
    file: configFile,
    ...(status === 'refused'
      ? { problems: problems.map(formatConfigProblem) }
      : { changed, channelsAdded: channels.added, channelsRemoved: channels.removed, channelsChanged: channels.changed, needsRestart }),
  };
  if (status === 'refused') logger.warn(details, `config reload refused, nothing changed: ${describeReload(report)}`);
  else logger.info(details, `config reloaded: ${describeReload(report)}`);
}
