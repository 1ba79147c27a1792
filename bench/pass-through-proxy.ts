/**
 * The benchmark's floor for "a proxy in front of the upstream": a `node:http` server that
 * forwards every request to `--upstream <url>` with undici's `request()` and streams the
 * answer back, with no parsing, auth, quota, routing or translation. Run as its own process:
 * `node dist/bench/pass-through-proxy.js --upstream <url>` prints `listening <url>`.
 *
 * The undici pool is set up as the gateway's upstream client is (keep-alive, 1024
 * connections, no pipelining), so the difference between the two is the gateway's own work.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (values.upstream === undefined) throw new Error('--upstream <url> is required');

const pool = new Pool(values.upstream, { connections: 1024, pipelining: 1, keepAliveTimeout: 10_000 });

/** Hop-by-hop headers (RFC 9110 §7.6.1) stay on their own connection. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function endToEnd(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !hopByHop.has(name)) kept[name] = value;
  return kept;
}

const server = createServer({ keepAliveTimeout: 60_000 }, (incoming, outgoing) => {
  const method = incoming.method === 'GET' || incoming.method === 'HEAD' ? incoming.method : 'POST';
  pool
    .request({ method, path: incoming.url ?? '/', headers: endToEnd(incoming.headers), body: method === 'POST' ? incoming : undefined })
    .then(async (answer) => {
      outgoing.writeHead(answer.statusCode, endToEnd(answer.headers));
      await pipeline(answer.body, outgoing);
    })
    .catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
