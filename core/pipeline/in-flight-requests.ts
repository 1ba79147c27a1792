import type { GatewayError } from '../errors/gateway-error.js';
import type { InterruptibleStream } from '../streaming/stream-pump.js';

/**
 * The model requests an app is working on, for the shutdown deadline. Requests not answered
 * yet have their upstream call abandoned (`onDeadline`), nothing is charged, and the
 * client gets a 503 `server_shutting_down` in its dialect while headers can still be sent.
 * Streams already answered are ended with an error event in their own wire format and billed
 * for what they sent. Either way a client reads why, instead of a cut connection.
 *
 * It also counts the model requests the process has taken ({@link admit}), from their
 * arrival to the close of their response (a stream's end included), for `server.max_in_flight`.
 * That span is wider than the drain's: it includes the body still arriving and the answer
 * still being written, which is what a process is carrying; the drain needs only what it
 * can abort or interrupt.
 */
export class InFlightRequests {
  readonly #streams = new Set<InterruptibleStream>();
  // Plain callbacks in a set rather than listeners on an AbortSignal: every upstream attempt
  // registers one, and EventTarget listeners cost several times more per request.
  readonly #onDeadline = new Set<() => void>();
  #deadlinePassed = false;
  #requests = 0;
  #admitted = 0;
  // One release for every admitted request: no closure per request on the hot path.
  readonly #release = (): void => {
    this.#admitted -= 1;
  };
  #drained: (() => void) | undefined;

  /** True once the shutdown deadline has passed. */
  get deadlinePassed(): boolean {
    return this.#deadlinePassed;
  }

  /** Calls `abort` at the shutdown deadline, unless the returned function was called first. */
  onDeadline(abort: () => void): () => void {
    this.#onDeadline.add(abort);
    return () => this.#onDeadline.delete(abort);
  }

  /** Counts a request until the returned function is called (once it has been answered or has failed). */
  begin(): () => void {
    this.#requests += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#requests -= 1;
      this.#checkDrained();
    };
  }

  /**
   * Model requests taken and not answered to their end yet: from {@link admit} to the call of
   * the function it returned.
   */
  get admitted(): number {
    return this.#admitted;
  }

  /**
   * Counts a model request from its arrival until the returned function is called, once and
   * only once (when its response has closed, whether it finished or the client left).
   */
  admit(): () => void {
    this.#admitted += 1;
    return this.#release;
  }

  /** Tracks an answered stream until the returned function is called. */
  track(stream: InterruptibleStream): () => void {
    this.#streams.add(stream);
    return () => {
      this.#streams.delete(stream);
      this.#checkDrained();
    };
  }

  /** Requests not answered yet, and streams still being sent. */
  get size(): { requests: number; streams: number } {
    return { requests: this.#requests, streams: this.#streams.size };
  }

  /**
   * The shutdown deadline: aborts the requests not answered yet and interrupts the streams
   * with `error`; resolves when all of them have ended, or after `limitMilliseconds`.
   */
  async endAll(error: GatewayError, limitMilliseconds: number): Promise<void> {
    const drained = new Promise<void>((resolve) => (this.#drained = resolve));
    const ends = [...this.#streams].map((stream) => stream.interrupt(error));
    this.#deadlinePassed = true;
    for (const abort of [...this.#onDeadline]) abort();
    this.#checkDrained();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMilliseconds);
    });
    await Promise.race([Promise.all([Promise.allSettled(ends), drained]), limit]);
    clearTimeout(timer);
  }

  #checkDrained(): void {
    if (this.#requests === 0 && this.#streams.size === 0) this.#drained?.();
  }
}
