import type { Logger } from 'pino';
import { isGatewayWorker } from './gateway-worker.js';

/**
 * SIGHUP asks this process to re-read its config file (systemd's `ExecReload=`, logrotate,
 * `model-gateway reload`); without a listener Node would exit at once. A SIGHUP while the
 * gateway starts is kept and run once it serves. A worker of the gateway's own cluster
 * ignores it: the primary takes SIGHUP, checks the file and tells every worker (a terminal's
 * hang-up reaches the whole process group, which must not reload each worker twice).
 * Reloads asked while one runs are folded into one more after it.
 */
export class ReloadSignals {
  readonly #logger: Logger;
  #reload: (() => Promise<void>) | undefined;
  #asked = false;
  #running: Promise<void> | undefined;
  readonly #onSignal = () => {
    if (isGatewayWorker()) return;
    this.#asked = true;
    if (this.#reload === undefined) {
      this.#logger.info({ signal: 'SIGHUP' }, 'SIGHUP while starting: the config is reloaded once the gateway serves');
      return;
    }
    this.#drain();
  };

  /** Starts listening for SIGHUP; call {@link dispose} when the process no longer serves. */
  constructor(logger: Logger) {
    this.#logger = logger;
    process.on('SIGHUP', this.#onSignal);
  }

  /** The gateway serves: each SIGHUP from now on (and one that came while starting) runs `reload`. */
  serve(reload: () => Promise<void>): void {
    this.#reload = reload;
    if (this.#asked) this.#drain();
  }

  #drain(): void {
    if (this.#running !== undefined || this.#reload === undefined) return;
    const reload = this.#reload;
    this.#running = (async () => {
      while (this.#asked) {
        this.#asked = false;
        try {
          await reload();
        } catch (error) {
          this.#logger.error({ err: error }, 'config reload failed');
        }
      }
    })().finally(() => (this.#running = undefined));
  }

  /** Stops listening (a SIGHUP then gets Node's default again: exit). */
  dispose(): void {
    process.off('SIGHUP', this.#onSignal);
  }
}
