import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

/** A loopback server that must never be reached: it records every connection and request. */
export interface CanaryServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Connections offered to it; a refusal must come before any. */
  connections: number;
  /** The path of every request it received. */
  hits: string[];
}

/**
 * Starts a canary on 127.0.0.1 standing for whatever an SSRF would reach (an admin port, a
 * metadata service): it answers 200 with a secret, so a test that got its bytes would show it.
 * Closed when the test ends.
 */
export async function startCanaryServer(t: Test): Promise<CanaryServer> {
  const canary: CanaryServer = { url: '', connections: 0, hits: [] };
  const server = createServer((request, response) => {
    canary.hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'video/mp4' }).end('canary secret');
  });
  server.on('connection', () => canary.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  canary.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return canary;
}
