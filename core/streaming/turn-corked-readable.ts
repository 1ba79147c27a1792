import { Readable, type ReadableOptions } from 'node:stream';

/**
 * A Readable that corks whatever it is piped into from its first push in a turn of the event
 * loop until that turn's `setImmediate`, so what is pushed in one turn leaves in one write.
 *
 * Piped into an HTTP response, a stream otherwise costs a socket write per tick: the text
 * held back while priming, then what the upstream's end adds, then (a tick later, when the
 * Readable emits `end`) the chunked terminator. On loopback each write wakes the reader and
 * costs tens of microseconds, more than translating the events. Corked to the end of the
 * turn, a short stream whose upstream has already finished leaves in one write, and a long
 * one in one write per upstream read, as a bare proxy's would. The delay is one pass of the
 * event loop, not a timer.
 */
export class TurnCorkedReadable extends Readable {
  readonly #destinations: NodeJS.WritableStream[] = [];
  #corked = false;

  constructor(options: ReadableOptions) {
    super(options);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.#destinations.push(destination);
    // What was pushed before the pipe flows into it within this turn: corked with the rest.
    this.#corkForThisTurn();
    return super.pipe(destination, options);
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    this.#corkForThisTurn();
    return super.push(chunk, encoding);
  }

  #corkForThisTurn(): void {
    if (this.#corked || this.#destinations.length === 0) return;
    this.#corked = true;
    for (const destination of this.#destinations) (destination as Partial<{ cork(): void }>).cork?.();
    setImmediate(this.#uncork);
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    for (const destination of this.#destinations) (destination as Partial<{ uncork(): void }>).uncork?.();
  };
}
