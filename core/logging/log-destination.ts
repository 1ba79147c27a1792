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
/** How often what is buffered is written anyway: a quiet gateway's lines still show. */
const periodicFlushMilliseconds = 200;

let processDestination: DestinationStream | undefined;

/**
 * The process's log destination, shared by every logger writing to stdout so that one flush
 * covers them all: pino's asynchronous destination (`sync: false`), which gathers lines and
 * writes them in batches, so logging never blocks a request on a slow reader of stdout. A
 * line waits at most {@link periodicFlushMilliseconds} for company. Lines still buffered are
 * written synchronously when the process exits, however it exits: a clean stop, SIGTERM or
 * SIGINT, a failed start, an uncaught exception.
 */
export function processLogDestination(): DestinationStream {
  if (processDestination === undefined) {
    const destination = pino.destination({ dest: 1, sync: false, minLength, maxWrite, periodicFlush: periodicFlushMilliseconds });
    // `exit` comes with every process.exit() (main.ts ends every command with one: a clean
    // stop, SIGTERM, SIGINT, a failed start) and after an uncaught exception. Nothing
    // asynchronous runs after it, so the flush is synchronous. (pino.destination registers a
    // flush of its own at exit too; the gateway's promise does not rest on that detail.)
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // Nothing more can be done for the log at exit: stdout is gone.
      }
    });
    processDestination = destination;
  }
  return processDestination;
}
