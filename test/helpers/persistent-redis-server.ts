import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { freePort, waitUntilAnswering } from './redis-server-process.js';

/** A private redis-server that keeps its data across a kill and a restart, as a production Redis with an append-only file does. */
export interface PersistentRedisServer {
  url: string;
  /** Kills the server at once (SIGKILL): nothing is flushed that was not already. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it answers. */
  start(): Promise<void>;
}

/**
 * Starts `redis-server` (which must be on the PATH) on a free loopback port with an
 * append-only file in a directory of its own, fsynced on every write, so a write Redis
 * acknowledged survives `kill()`. Killed, and its directory removed, when the test ends.
 */
export async function startPersistentRedisServer(t: Test): Promise<PersistentRedisServer> {
  // Not t.testdir(): a later t.testdir() call in the same test (storageFor) empties it.
  const directory = mkdtempSync(join(tmpdir(), 'mg-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const server: PersistentRedisServer = {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', directory, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
        { stdio: 'ignore' },
      );
      await waitUntilAnswering(url);
    },
    async kill() {
      const running = child;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise((resolve) => {
        running.once('exit', resolve);
        running.kill('SIGKILL');
      });
    },
  };
  t.teardown(async () => {
    await server.kill();
    rmSync(directory, { recursive: true, force: true });
  });
  await server.start();
  return server;
}
