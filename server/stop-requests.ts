import cluster from 'node:cluster';
import { isStopMessage } from './stop-message.js';

/**
 * Requests to stop this process: SIGTERM and SIGINT, and in a cluster worker the primary's
 * {@link StopMessage}. The first request asks for a graceful stop; a second signal, or the
 * primary's `now`, asks to exit at once. The primary's graceful request after a signal adds
 * nothing, because Ctrl-C on a terminal reaches the primary and every worker together, and
 * must not count twice.
 */
export class StopRequests {
  /** Resolves with what asked for the graceful stop (`SIGTERM`, `SIGINT` or `primary`). */
  readonly graceful: Promise<string>;
  /** Resolves with what asked to exit at once. */
  readonly immediate: Promise<string>;
  #requested = false;
  #resolveGraceful!: (reason: string) => void;
  #resolveImmediate!: (reason: string) => void;
  readonly #onSignal = (signal: NodeJS.Signals) => this.#request(signal, this.#requested);
  readonly #onMessage = (message: unknown) => {
    if (isStopMessage(message)) this.#request('primary', message.now);
  };

  /** Starts listening; call {@link dispose} when the process no longer serves. */
  constructor() {
    this.graceful = new Promise((resolve) => (this.#resolveGraceful = resolve));
    this.immediate = new Promise((resolve) => (this.#resolveImmediate = resolve));
    process.on('SIGTERM', this.#onSignal);
    process.on('SIGINT', this.#onSignal);
    if (cluster.isWorker) process.on('message', this.#onMessage);
  }

  #request(reason: string, immediate: boolean): void {
    if (immediate) this.#resolveImmediate(reason);
    this.#requested = true;
    this.#resolveGraceful(reason);
  }

  /** Stops listening. */
  dispose(): void {
    process.off('SIGTERM', this.#onSignal);
    process.off('SIGINT', this.#onSignal);
    process.off('message', this.#onMessage);
  }
}
