import { write, writeSync } from 'node:fs';

/** How a {@link BatchedLogDestination} gathers and writes lines. */
export interface BatchedLogDestinationOptions {
  /** The file descriptor written to (1 for stdout). */
  fd: number;
  /** Bytes gathered before a write starts. */
  minLength: number;
  /**
   * Most bytes one write carries. Lines are never cut between writes, so a write of whole
   * lines within `PIPE_BUF` stays whole on a pipe other processes write to; a single line
   * longer than this goes out alone.
   */
  maxWrite: number;
  /** How often what is gathered is written anyway, so a quiet process's lines still show. */
  periodicFlushMilliseconds: number;
}

/** How long to wait before writing again to a non-blocking pipe that is full (`EAGAIN`). */
const busyRetryMilliseconds = 10;

/**
 * A log destination that gathers lines and writes them in batches, one asynchronous write at
 * a time, never blocking a request on the reader of stdout.
 *
 * pino's own asynchronous destination (sonic-boom 4) measures the byte length of the batch it
 * appends to on every line, so its cost per line grows with the batch: about 4 µs a line with
 * 16–64 KiB batches and 1.3 µs with 2–4 KiB ones, against 0.3–0.5 µs here, where a line is
 * only pushed and counted, and joined once per write (docs/benchmark.md, "The log
 * destination").
 */
export class BatchedLogDestination {
  readonly #options: BatchedLogDestinationOptions;
  #lines: string[] = [];
  /** The byte length of each of {@link #lines}. */
  #lengths: number[] = [];
  /** Bytes of {@link #lines}. */
  #pending = 0;
  /** The bytes of the write in flight, or undefined when none is. */
  #writing: Buffer | undefined;
  #failed = false;
  readonly #timer: NodeJS.Timeout;

  constructor(options: BatchedLogDestinationOptions) {
    this.#options = options;
    this.#timer = setInterval(() => this.#writeNext(), options.periodicFlushMilliseconds);
    this.#timer.unref();
  }

  /** Takes one line (pino hands over each line whole, its newline included). */
  write(line: string): boolean {
    if (this.#failed) return true;
    const length = Buffer.byteLength(line);
    this.#lines.push(line);
    this.#lengths.push(length);
    this.#pending += length;
    if (this.#writing === undefined && this.#pending >= this.#options.minLength) this.#writeNext();
    return true;
  }

  /**
   * Writes every gathered line synchronously: for the exit, when no callback runs again. A
   * write in flight is left to finish on its own, as its bytes are already with the system.
   */
  flushSync(): void {
    while (this.#lines.length > 0 && !this.#failed) {
      let batch = this.#takeBatch();
      while (batch.length > 0) {
        try {
          batch = batch.subarray(writeSync(this.#options.fd, batch));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
          this.#fail(error);
          return;
        }
      }
    }
  }

  /** Stops the periodic flush; what is gathered stays for {@link flushSync}. */
  end(): void {
    clearInterval(this.#timer);
  }

  #writeNext(): void {
    if (this.#writing !== undefined || this.#lines.length === 0 || this.#failed) return;
    this.#send(this.#takeBatch());
  }

  #send(bytes: Buffer): void {
    this.#writing = bytes;
    write(this.#options.fd, bytes, 0, bytes.length, null, (error, written) => {
      if (error !== null) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.#send(bytes), busyRetryMilliseconds).unref();
          return;
        }
        this.#writing = undefined;
        this.#fail(error);
        return;
      }
      // A pipe may take part of a write; the rest goes first, so lines keep their order.
      if (written < bytes.length) {
        this.#send(bytes.subarray(written));
        return;
      }
      this.#writing = undefined;
      if (this.#pending >= this.#options.minLength) this.#writeNext();
    });
  }

  /** Removes whole lines from the front, up to `maxWrite` bytes (at least one line), as one buffer. */
  #takeBatch(): Buffer {
    const { maxWrite } = this.#options;
    const lengths = this.#lengths;
    let count = 0;
    let bytes = 0;
    while (count < lengths.length && (count === 0 || bytes + lengths[count]! <= maxWrite)) bytes += lengths[count++]!;
    let taken = this.#lines;
    if (count === lengths.length) {
      this.#lines = [];
      this.#lengths = [];
    } else {
      taken = this.#lines.splice(0, count);
      lengths.splice(0, count);
    }
    this.#pending -= bytes;
    return Buffer.from(taken.join(''));
  }

  // stdout is gone (a closed pipe) or refuses writes: nothing more can be logged there, and a
  // logger must not take the gateway down with it. One line on stderr says so.
  #fail(error: unknown): void {
    this.#failed = true;
    this.#lines = [];
    this.#lengths = [];
    this.#pending = 0;
    try {
      writeSync(2, `the log destination stopped writing: ${error instanceof Error ? error.message : String(error)}\n`);
    } catch {
      // stderr is gone too.
    }
  }
}
