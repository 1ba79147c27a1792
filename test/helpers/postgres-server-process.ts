import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redis-server-process.js';

const run = promisify(execFile);

/** A private PostgreSQL cluster on a free loopback port, for tests that stop and start the database. */
export interface PostgresServerProcess {
  url: string;
  /** Stops the server at once, as a crash would (`pg_ctl stop -m immediate`). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  remove(): Promise<void>;
}

/** The directory of the newest installed PostgreSQL's programs (Debian's layout), or `POSTGRES_BIN`. */
function postgresBinDirectory(): string {
  if (process.env.POSTGRES_BIN !== undefined) return process.env.POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error('no PostgreSQL programs found under /usr/lib/postgresql; set POSTGRES_BIN to the directory holding initdb and pg_ctl');
  return join(root, newest, 'bin');
}

/**
 * Creates a throwaway cluster (trust authentication, no fsync) and starts it. PostgreSQL refuses
 * to run as root, so under root its programs run as the `postgres` user, who owns the files.
 */
export async function startPostgresServer(): Promise<PostgresServerProcess> {
  const bin = postgresBinDirectory();
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'mg-postgres-'));
  const data = join(directory, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(directory, Number(stdout.trim()), Number(group.trim()));
  }
  const postgresTool = (tool: string, parameters: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...parameters]) : run(join(bin, tool), parameters);
  await postgresTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = async () => {
    const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await postgresTool('pg_ctl', ['start', '-w', '-D', data, '-l', join(directory, 'server.log'), '-o', options]).catch((error: unknown) => {
      // pg_ctl says only "could not start server"; the reason is in the server's log.
      const log = existsSync(join(directory, 'server.log')) ? readFileSync(join(directory, 'server.log'), 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      throw new Error(`PostgreSQL did not start on port ${port}: ${log}`, { cause: error });
    });
  };
  const stop = async () => {
    await postgresTool('pg_ctl', ['stop', '-m', 'immediate', '-D', data]).catch(() => {});
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
