import type { DestinationStream } from 'pino';
import { pino } from 'pino';

/**
 * The most bytes one write carries: what a pipe writes at once, whole. The workers of a
 * cluster share the primary's stdout, so a larger write could interleave with another
 * process's and cut lines in two.
 */
const maxWrite = 4096;
/** Bytes gathered before a write: several request lines, under load. */
const minLength = 2048;
/** How long a line may wait for others before it is written anyway: a quiet gateway's lines still show. */
const idleFlushMilliseconds = 200;

/**
 * Log lines to stdout, written asynchronously and in batches (pino's `sync: false`
 * destination): logging never blocks a request on a slow reader of stdout, and under load
 * one write carries several lines. A line waits at most {@link idleFlushMilliseconds} for
 * company. Lines still buffered are written synchronously when the process exits, however
 * it exits: a clean stop, SIGTERM or SIGINT, a failed start, an uncaught exception.
 */
export class BufferedLogDestination implements DestinationStream {
  readonly #stream = pino.destination({ dest: 1, sync: false, minLength, maxWrite });
  #idleFlush: NodeJS.Timeout | undefined;
  readonly #flushBuffered = () => {
    this.#idleFlush = undefined;
    this.#stream.flush();
  };

  write(line: string): void {
    this.#stream.write(line);
    // One timer per batch, not per line; it must not keep an idle process alive.
    this.#idleFlush ??= setTimeout(this.#flushBuffered, idleFlushMilliseconds).unref();
  }

  /** Starts writing what is buffered; pino's `logger.flush()` calls it. */
  flush(callback?: (error?: Error) => void): void {
    this.#stream.flush(callback);
  }

  /** Writes what is buffered before returning; pino calls it after a `fatal` line. */
  flushSync(): void {
    clearTimeout(this.#idleFlush);
    this.#idleFlush = undefined;
    try {
      this.#stream.flushSync();
    } catch {
      // Nothing more can be done for the log at exit: stdout is gone, or not open yet.
    }
  }
}

let processDestination: BufferedLogDestination | undefined;

/** The process's one log destination, shared by every logger writing to stdout, so one flush covers them all. */
export function processLogDestination(): BufferedLogDestination {
  if (processDestination === undefined) {
    const destination = new BufferedLogDestination();
    // `exit` comes with every process.exit() (main.ts ends every command with one: a clean
    // stop, SIGTERM, SIGINT, a failed start) and after an uncaught exception. Nothing
    // asynchronous runs after it, so the flush is synchronous. (pino.destination registers a
    // flush of its own at exit too; the gateway's promise does not rest on that detail.)
    process.once('exit', () => destination.flushSync());
    processDestination = destination;
  }
  return processDestination;
}
