import type { GatewayError } from '../errors/gateway-error.js';

/** A stream being sent to a client that can be ended early with an in-band error. */
export interface InterruptibleStream {
  /** Stops reading the upstream and ends the client's stream with `error` as its last event; resolves once that end is written. */
  interrupt(error: GatewayError): Promise<void>;
}

/**
 * The streams an app is sending right now. At the shutdown deadline they are ended with an
 * error event in their own wire format, billed for what was sent, before the connections
 * are closed: an SSE client then reads why its stream stopped instead of a cut connection.
 */
export class OpenStreams {
  readonly #streams = new Set<InterruptibleStream>();

  /** Tracks `stream` until the returned function is called. */
  track(stream: InterruptibleStream): () => void {
    this.#streams.add(stream);
    return () => this.#streams.delete(stream);
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Interrupts every open stream; resolves when all have written their end, or after `limitMilliseconds`. */
  async interruptAll(error: GatewayError, limitMilliseconds: number): Promise<void> {
    const ends = [...this.#streams].map((stream) => stream.interrupt(error));
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMilliseconds);
    });
    await Promise.race([Promise.allSettled(ends), limit]);
    clearTimeout(timer);
  }
}
