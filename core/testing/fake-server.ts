import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One request as a fake upstream received it. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, as sent (not decoded). */
  path: string;
  /** Query parameters; the last value wins when one repeats. */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body exactly as received; a multipart upload is binary, so its text is lossy. */
  raw: Buffer;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  /** Bytes of the answer's body the fake has handed to the socket so far (counted by `sendPieces`). */
  bodyBytesWritten: number;
}

/** What a fake's handler gets for one request. */
export interface FakeExchange {
  request: RecordedRequest;
  response: ServerResponse;
  incoming: IncomingMessage;
  /** Aborts when the client's connection closes or the fake shuts down, ending any stall. */
  signal: AbortSignal;
}

/** A running fake upstream. */
export interface FakeServer {
  /** The base address, `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Stops listening and destroys open connections, including stalled ones. */
  close(): Promise<void>;
}

/**
 * Starts a `node:http` server on 127.0.0.1 and a free port that reads each request body,
 * records the request and hands it to `handle`. A handler that throws before answering
 * gets a plain 500, so a broken fake shows up as an upstream error, not a hang.
 */
export async function startFakeServer(handle: (exchange: FakeExchange) => void | Promise<void>): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = record(incoming, Buffer.concat(chunks));
      requests.push(request);
      const connection = new AbortController();
      response.on('close', () => connection.abort());
      const signal = AbortSignal.any([connection.signal, shutdown.signal]);
      Promise.resolve()
        .then(() => handle({ request, response, incoming, signal }))
        .catch((error: unknown) => {
          if (response.headersSent) {
            response.destroy();
            return;
          }
          response.writeHead(500, { 'content-type': 'text/plain' }).end(`fake upstream failed: ${String(error)}`);
        });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      shutdown.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** Waits `milliseconds`, or less when `signal` aborts; never rejects. */
export async function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  await sleep(milliseconds, undefined, { signal }).catch(() => undefined);
}

/** Writes `data` and resolves once it has been handed to the socket (or the socket is gone). */
export function writeFlushed(response: ServerResponse, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed || response.writableEnded) {
      resolve();
      return;
    }
    const done = () => {
      response.off('close', done);
      resolve();
    };
    response.once('close', done);
    response.write(data, done);
  });
}

function record(incoming: IncomingMessage, raw: Buffer): RecordedRequest {
  const text = raw.toString('utf8');
  const url = new URL(incoming.url ?? '/', 'http://fake.invalid');
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: incoming.headers,
    raw,
    text,
    json,
    bodyBytesWritten: 0,
  };
}
