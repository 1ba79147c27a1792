import { AbortFlag, type AbortWatch } from './abort-flag.js';

/**
 * A caller's abort signal combined with a time limit. `signal` aborts when either fires;
 * `expired` tells the two apart afterwards.
 *
 * An explicit timer rather than `AbortSignal.timeout`: this one is cleared as soon as the
 * work ends, instead of staying armed until it fires (600 s by default for upstream calls)
 * or until the garbage collector gets to the signal.
 */
export class Deadline {
  /** Aborts when the caller aborts or the time is up, whichever comes first. */
  readonly signal: AbortWatch;
  readonly milliseconds: number;
  #expired = false;
  readonly #timer: NodeJS.Timeout;
  readonly #callerSignal: AbortWatch | undefined;
  readonly #onCallerAbort: () => void;

  // One flag that the caller's signal feeds through a listener, removed in clear(), rather
  // than AbortSignal.any or a controller: on Node 20 `any` costs a weak reference and a
  // registry entry per call, and a controller an EventTarget (see abort-flag.ts); both showed
  // in the benchmark's profile at a few percent per request.
  constructor(milliseconds: number, callerSignal?: AbortWatch) {
    this.milliseconds = milliseconds;
    const controller = new AbortFlag();
    this.#timer = setTimeout(() => {
      this.#expired = true;
      controller.abort(new DOMException(`the time limit of ${milliseconds} ms has passed`, 'TimeoutError'));
    }, milliseconds);
    this.#timer.unref();
    this.#callerSignal = callerSignal;
    this.#onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted === true) controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.signal = controller;
  }

  /** True once the time limit has passed; false when the caller aborted first or the work ended in time. */
  get expired(): boolean {
    return this.#expired;
  }

  /** Disarms the timer; call it once the work is done. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }
}
