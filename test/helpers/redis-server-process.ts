import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createClient } from '@redis/client';

/** A private redis-server on a free loopback port, for tests that stop and start Redis. */
export interface RedisServerProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** The lowest port the kernel hands out on its own (`listen(0)`, outgoing connections); 32768 on Linux by default. */
function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const bindsTo = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A loopback port nothing listens on right now, for a server the test stops and starts again
 * on it. Taken below the kernel's ephemeral range: a port from `listen(0)` goes back to that
 * range once closed, and another test's server or connection may get it before the server
 * binds it (a private PostgreSQL then failed to start with "Address already in use").
 */
export async function freePort(): Promise<number> {
  // A kernel set to hand out low ports leaves no range to avoid; take 10000–11000 then.
  const high = Math.max(ephemeralPortsStart(), 11_000);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 10_000 + Math.floor(Math.random() * (high - 10_000));
    if (await bindsTo(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

/** Resolves once the Redis at `url` answers commands (not just PING: while it loads its append-only file it refuses them). */
export async function waitUntilAnswering(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.get('readiness-probe');
      await client.close();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`redis-server at ${url} did not start`);
}

/** Starts `redis-server` (which must be on the PATH) with no persistence. */
export async function startRedisServer(): Promise<RedisServerProcess> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitUntilAnswering(url);
  };
  const stop = async () => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url, start, stop };
}
