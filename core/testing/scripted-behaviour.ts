import { pause, type FakeExchange, type FakeServer, type RecordedRequest } from './fake-server.js';

/**
 * What every scripted fake upstream can be told to do with its next request instead of its
 * default answer. Fields combine (for example `chunkDelayMs` with `rawSse`, or
 * `stallBeforeHeadersMs` with `error`). "Chunks" are the pieces an answer is written in: one
 * SSE event, one entry of a `rawSse` array, or the whole body of a JSON answer.
 */
export interface ScriptedBehaviour {
  /** Answer this HTTP status with the vendor's own error body for it. */
  error?: number;
  /** Replaces the default message of `error` (and of an in-band error). */
  message?: string;
  /** Answer this status with `body` (an object is sent as pretty JSON, a string as is). */
  status?: number;
  /** The body for `status`; without it, the vendor's error body for that status. */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Wait this long before sending the status line. */
  stallBeforeHeadersMs?: number;
  /** Destroy the socket before any response byte. */
  resetBeforeHeaders?: boolean;
  /** Send this many chunks, then go silent for `stallMs` (default: until the client or the fake closes), then go on. */
  stallAfterChunks?: number;
  /** How long `stallAfterChunks` stays silent. */
  stallMs?: number;
  /** Send this many chunks, then destroy the socket without ending the response. */
  resetAfterChunks?: number;
  /** Wait this long between chunks. */
  chunkDelayMs?: number;
  /** Cut the last chunk of a stream answer in the middle and end the response cleanly. */
  truncateSse?: boolean;
  /**
   * Write these pieces as the answer's body instead of its own, one by one, with the answer's
   * status and headers but no `Content-Length` (a `headers` entry may declare one): a body of
   * any size, built from a few shared strings, for a test of what a client holds of it.
   */
  bodyPieces?: Array<string | Uint8Array>;
}

/**
 * Plays what a behaviour asks of the connection before any answer: a reset, or a stall
 * before the status line. Resolves false when the exchange is over (reset, or the client
 * left during the stall) and nothing more should be sent.
 */
export async function playConnectionBehaviour(exchange: FakeExchange, behaviour: ScriptedBehaviour): Promise<boolean> {
  if (behaviour.resetBeforeHeaders === true) {
    exchange.incoming.socket.destroy();
    return false;
  }
  if (behaviour.stallBeforeHeadersMs !== undefined) {
    await pause(behaviour.stallBeforeHeadersMs, exchange.signal);
    if (exchange.signal.aborted) return false;
  }
  return true;
}

/** What a test holds of a scripted fake upstream. */
export interface ScriptedFake<Behaviour extends ScriptedBehaviour> {
  /** The fake's origin, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues a behaviour for the next request that has none. */
  next(behaviour: Behaviour): void;
  /** Forgets queued behaviours and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** The test-facing handle of a fake server whose handler takes behaviours from `queue`. */
export function scriptedFake<Behaviour extends ScriptedBehaviour>(server: FakeServer, queue: Behaviour[]): ScriptedFake<Behaviour> {
  return {
    url: server.url,
    requests: server.requests,
    next: (behaviour) => void queue.push(behaviour),
    reset: () => {
      queue.length = 0;
      server.requests.length = 0;
    },
    close: () => server.close(),
  };
}
