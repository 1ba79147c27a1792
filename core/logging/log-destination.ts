import type { DestinationStream } from 'pino';

import cluster from 'node:cluster';
import { fstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BatchedLogDestination } from './batched-log-destination.js';

/**
 * How many bytes a write gathers (`minLength`) and carries at most (`maxWrite`). Each write
 * costs a system call and a hand-off to libuv's thread pool, paid on the gateway's core, so a
 * process that has its stdout to itself, or writes to a file or a terminal, gathers 16 KiB and
 * writes up to 64 KiB at once. The workers of a cluster that share one pipe keep each write
 * within what a pipe writes whole (`PIPE_BUF`, 4096 bytes on Linux): a larger write could
 * interleave with another worker's and cut lines in two. (Writes to a regular file move its
 * shared offset atomically, so workers may batch there too.)
 */
function writeSizes(): { minLength: number; maxWrite: number } {
  let sharedPipe = false;
  try {
    const stat = fstatSync(1);
    sharedPipe = cluster.isWorker && (stat.isFIFO() || stat.isSocket());
  } catch {
    sharedPipe = cluster.isWorker;
  }
  return sharedPipe ? { minLength: 2048, maxWrite: 4096 } : { minLength: 16_384, maxWrite: 65_536 };
}

/** How often what is buffered is written anyway: a quiet gateway's lines still show. */
const periodicFlushMilliseconds = 200;

let processDestination: DestinationStream | undefined;

/** How lines look: JSON for machines, readable lines for a person. */
export type LogFormat = 'json' | 'pretty';

/**
 * `LOG_FORMAT` when set (`json` or `pretty`), else readable lines when stdout is a terminal
 * and JSON otherwise (a service manager, a container, a pipe, a file).
 * @throws Error naming the accepted values, for any other `LOG_FORMAT`.
 */
export function logFormat(environment: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): LogFormat {
  const asked = environment.LOG_FORMAT?.trim().toLowerCase();
  if (asked === undefined || asked === '') return terminal ? 'pretty' : 'json';
  if (asked === 'json' || asked === 'pretty') return asked;
  throw new Error(`LOG_FORMAT is "${environment.LOG_FORMAT}"; set it to json or pretty, or leave it unset (readable lines on a terminal, JSON otherwise)`);
}

/**
 * Readable lines through pino-pretty, loaded only when asked for. Written synchronously: a
 * terminal's reader is a person, and nothing is left in a buffer at exit. Each line is the
 * JSON line pino made, secrets already scrubbed (see `create-logger.ts`), rendered.
 */
function prettyDestination(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
  return pretty({ destination: 1, sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * The process's log destination, shared by every logger writing to stdout so that one flush
 * covers them all: a {@link BatchedLogDestination}, which gathers lines and writes them in
 * batches, asynchronously, so logging never blocks a request on a slow reader of stdout. A
 * line waits at most {@link periodicFlushMilliseconds} for company. Lines still buffered are
 * written synchronously when the process exits, however it exits: a clean stop, SIGTERM or
 * SIGINT, a failed start, an uncaught exception. With `LOG_FORMAT=pretty` (the default on a
 * terminal) lines are rendered readable instead, see {@link logFormat}.
 */
export function processLogDestination(): DestinationStream {
  if (processDestination === undefined && logFormat() === 'pretty') processDestination = prettyDestination();
  if (processDestination === undefined) {
    const destination = new BatchedLogDestination({ fd: 1, ...writeSizes(), periodicFlushMilliseconds });
    // `exit` comes with every process.exit() (main.ts ends every command with one: a clean
    // stop, SIGTERM, SIGINT, a failed start) and after an uncaught exception. Nothing
    // asynchronous runs after it, so the flush is synchronous.
    process.once('exit', () => destination.flushSync());
    processDestination = destination;
  }
  return processDestination;
}
