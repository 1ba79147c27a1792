import { resolve, sep } from 'node:path';
import type { GatewayConfig } from '../core/config/config-schema.js';
import { StartupError } from '../core/errors/startup-error.js';

/** Why a file system call failed, in the words an operator acts on. */
const reasons: Record<string, string> = {
  EEXIST: 'a file is where a folder must be',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'this user may not write there',
  EPERM: 'this user may not write there',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

/** `inner` is `outer` or inside it. */
const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}${sep}`);

/**
 * A failure to create or write the gateway's own files (the SQLite database, or what
 * `storage.data_dir` holds: the generated encryption key, the first admin's login token, the
 * pid file) as one line naming the key to change ({@link StartupError}); any other error
 * unchanged. Those files are written by several commands (`start`, `users create`,
 * `users list`), each deep in its own code, so the command line translates the error once,
 * where every command's failure passes.
 */
export function storageFileFailure(error: unknown, storage: Pick<GatewayConfig['storage'], 'driver' | 'path' | 'data_dir'>, configFile: string): unknown {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === undefined) return error;
  const explicitDatabase = storage.driver === 'sqlite' && storage.path !== undefined ? resolve(storage.path) : undefined;
  const dataDirectory = resolve(storage.data_dir);
  const database = explicitDatabase ?? resolve(dataDirectory, 'gateway.sqlite');
  // better-sqlite3 names no path: the one file it opens is the database.
  if (storage.driver === 'sqlite' && (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY'))) {
    const key = explicitDatabase === undefined ? 'storage.data_dir' : 'storage.path';
    return new StartupError(`SQLite cannot open ${database} for writing (${code}): set ${key} in ${configFile} to a place this user may write`, { cause: error });
  }
  const reason = reasons[code];
  if (reason === undefined || path === undefined) return error;
  const failed = resolve(path);
  if (explicitDatabase !== undefined && within(explicitDatabase, failed)) {
    return new StartupError(`cannot create the SQLite database ${explicitDatabase}: ${failed} (${code}: ${reason}); set storage.path in ${configFile} to a file in a folder this user may write`, { cause: error });
  }
  if (within(dataDirectory, failed) || within(failed, dataDirectory)) {
    return new StartupError(
      `cannot write to the data directory ${dataDirectory}: ${failed} (${code}: ${reason}); set storage.data_dir in ${configFile} to a folder this user may write (the generated encryption key, the first admin's login token and the pid file go there)`,
      { cause: error },
    );
  }
  return error;
}
