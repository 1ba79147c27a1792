import { Readable } from 'node:stream';

/** What a {@link WriteThroughReadable} is piped into: a Writable, such as an HTTP response. */
type Destination = NodeJS.WritableStream & Partial<{ cork(): void; uncork(): void; destroyed: boolean; writableEnded: boolean }>;

/**
 * The client-facing side of a stream, written by one producer (the stream pump) with
 * {@link send} and {@link finish}. It is a Readable, so the route sends it like any stream
 * (fastify sets the headers, runs its hooks and watches both ends), but once piped into a
 * destination it writes the text straight to it: no Readable buffer, no `data` event, no
 * pipe bookkeeping per write. Read any other way (iterated, `on('data')`), it pushes as a
 * plain Readable does.
 *
 * Why: a 20-event stream is translated in a few microseconds an event, and Node's stream
 * machinery around each write (push, the flowing read, the pipe's `ondata`, a `setImmediate`
 * per turn to cork) cost about as much again. Now one upstream read is one `write` of one
 * string into the response, which Node's HTTP layer sends in one socket write (it corks the
 * socket until the end of the tick itself), and the last text goes out with the response's
 * end in the same write.
 *
 * What is sent before the pipe (the text held back while priming) is kept and written when it
 * comes, and the destination is corked until the end of that turn of the event loop, so a
 * short stream whose upstream has already finished leaves in one socket write, headers,
 * events and the chunked terminator together. That is one `setImmediate` per stream, none per
 * event.
 *
 * Backpressure is the destination's: {@link send} returns false when it is full, and
 * `onWritable` (a constructor argument) is called once it drains, or when the consumer reads
 * again in the pushed mode.
 */
export class WriteThroughReadable extends Readable {
  readonly #onWritable: () => void;
  #destination: Destination | undefined;
  /** End the destination at the end (the pipe's `end` option). */
  #endDestination = true;
  /** Read some other way than a pipe: text goes through the Readable's own buffer. */
  #pushed = false;
  /** Text sent before it was piped or read. */
  #pending = '';
  /** {@link finish} was called before it was piped or read. */
  #finishedEarly = false;

  /**
   * @param onWritable called when the consumer can take more after {@link send} returned false.
   * @param onDestroy the Readable's `_destroy`: the client went away, or the stream is over.
   */
  constructor(onWritable: () => void, onDestroy: (error: Error | null, callback: (error?: Error | null) => void) => void) {
    super({ destroy: onDestroy });
    this.#onWritable = onWritable;
  }

  override _read(): void {
    if (this.#destination !== undefined) return;
    if (!this.#pushed) {
      // Read, not piped: what was sent so far goes through the buffer, and so does the rest.
      this.#pushed = true;
      const text = this.#pending;
      this.#pending = '';
      if (text !== '') super.push(text);
      if (this.#finishedEarly) super.push(null);
    }
    this.#onWritable();
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // A second destination, or one after reading began, gets the plain Readable's pipe.
    if (this.#destination !== undefined || this.#pushed) return super.pipe(destination, options);
    const target = destination as Destination;
    this.#destination = target;
    this.#endDestination = options?.end !== false;
    target.on('drain', this.#onWritable);
    // Flowing with nothing in the buffer, so the `end` the pipe's users wait for comes
    // right after finish().
    this.resume();
    if (typeof target.cork === 'function') {
      target.cork();
      setImmediate(() => target.uncork?.());
    }
    const text = this.#pending;
    this.#pending = '';
    if (this.#finishedEarly) this.#end(target, text);
    // A producer that filled the pending text waits for this, or for the drain.
    else if (text === '' || target.write(text)) this.#onWritable();
    return destination;
  }

  /**
   * Sends `text` to the client. Returns false when the consumer is full: the producer should
   * wait for `onWritable` before sending more (what it sends anyway is still delivered).
   */
  send(text: string): boolean {
    if (text === '' || this.destroyed) return true;
    const destination = this.#destination;
    if (destination !== undefined) return this.#writable(destination) ? destination.write(text) : true;
    if (this.#pushed) return super.push(text);
    this.#pending += text;
    return this.#pending.length < this.readableHighWaterMark;
  }

  /** Sends `text` (may be empty) as the last of the stream and ends it. */
  finish(text = ''): void {
    if (this.destroyed) return;
    const destination = this.#destination;
    if (destination !== undefined) this.#end(destination, text);
    else if (this.#pushed) {
      if (text !== '') super.push(text);
      super.push(null);
    } else {
      this.#pending += text;
      this.#finishedEarly = true;
    }
  }

  #end(destination: Destination, text: string): void {
    if (this.#writable(destination)) {
      // The last text and the response's end leave in one socket write.
      if (this.#endDestination) {
        if (text === '') destination.end();
        else destination.end(text);
      }
      else if (text !== '') destination.write(text);
    }
    super.push(null);
  }

  #writable(destination: Destination): boolean {
    return destination.destroyed !== true && destination.writableEnded !== true;
  }
}
