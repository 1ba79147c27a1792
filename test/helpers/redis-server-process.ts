import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient } from '@redis/client';

/** A private redis-server on a free loopback port, for tests that stop and start Redis. */
export interface RedisServerProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A loopback port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

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
