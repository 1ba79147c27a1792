import { finished, type Readable } from 'node:stream';

/**
 * How many bytes may wait for the reader before the body is paused: a few small reads (paced
 * events arriving while the reader is busy) pass without a pause, but a large one pauses the
 * body at once, so the body's own buffer (64 KiB) holds the rest and a reader held up by its
 * client (backpressure) makes the upstream wait instead of the gateway buffering without bound.
 * Kept small for fairness too: what waits is translated in one synchronous pass, so a stream
 * whose upstream is far ahead takes a socket read's worth per turn, as it did through Node's
 * own iterator, not a longer pass that holds up every other stream.
 */
const pauseAboveBytes = 16 * 1024;

/**
 * The chunks of `body` as an iterator, taken by `data` events: each `next()` resolves with all
 * that arrived since the last one (joined, as `read()` joins what is buffered) or waits for the
 * next chunk, the end or the failure (`mapError` of it; a body closed before its end fails as
 * a premature close). `return()` destroys the body, which frees the connection.
 *
 * Why not Node's own async iterator: it is an async generator over `read()`, with a promise
 * per chunk in the generator, one in the wrapper that maps errors, and one for the wait. On a
 * paced stream that is an upstream read per event, and the chain cost as much as the
 * translation of the event; here it is one promise per `next()` that has to wait, and none for
 * chunks already there.
 */
export function readableChunks(body: Readable, mapError: (error: unknown) => unknown): AsyncIterator<Uint8Array> {
  const queued: Buffer[] = [];
  let queuedBytes = 0;
  let paused = false;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let waiting: { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void } | undefined;

  const take = (): Buffer => {
    const chunk = queued.length === 1 ? (queued[0] as Buffer) : Buffer.concat(queued, queuedBytes);
    queued.length = 0;
    queuedBytes = 0;
    if (paused && !ended && failure === undefined) {
      paused = false;
      body.resume();
    }
    return chunk;
  };
  const settle = (): void => {
    const waiter = waiting;
    if (waiter === undefined) return;
    waiting = undefined;
    if (queuedBytes > 0) waiter.resolve({ done: false, value: take() });
    else if (failure !== undefined) waiter.reject(failure.error);
    else if (ended) waiter.resolve({ done: true, value: undefined });
  };

  body.on('data', (chunk: Buffer) => {
    queued.push(chunk);
    queuedBytes += chunk.length;
    if (waiting !== undefined) settle();
    else if (queuedBytes > pauseAboveBytes && !paused) {
      paused = true;
      body.pause();
    }
  });
  finished(body, { writable: false }, (error) => {
    if (error === undefined || error === null) ended = true;
    else failure ??= { error: mapError(error) };
    settle();
  });

  return {
    next: () => {
      if (queuedBytes > 0) return Promise.resolve({ done: false, value: take() });
      if (failure !== undefined) return Promise.reject(failure.error);
      if (ended) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    return: () => {
      queued.length = 0;
      queuedBytes = 0;
      ended = true;
      body.destroy();
      return Promise.resolve({ done: true, value: undefined });
    },
  };
}
