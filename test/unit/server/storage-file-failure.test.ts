import t from 'tap';
import { StartupError } from '../../../core/errors/startup-error.js';
import { storageFileFailure } from '../../../server/storage-file-failure.js';

const errno = (code: string, path?: string) => Object.assign(new Error(`${code}: failed`), { code, syscall: 'open', ...(path === undefined ? {} : { path }) });
const sqlite = { driver: 'sqlite', path: '/srv/db/gateway.sqlite', data_dir: '/srv/data' } as const;

t.test("a write refused inside the data directory names storage.data_dir; one on the database's folder names storage.path", async (t) => {
  const inData = storageFileFailure(errno('EACCES', '/srv/data/admin-login-token'), { ...sqlite }, 'gateway.yaml');
  t.ok(StartupError.is(inData));
  t.equal((inData as Error).message, "cannot write to the data directory /srv/data: /srv/data/admin-login-token (EACCES: this user may not write there); set storage.data_dir in gateway.yaml to a folder this user may write (the generated encryption key, the first admin's login token and the pid file go there)");
  const onDatabase = storageFileFailure(errno('EROFS', '/srv/db'), { ...sqlite }, 'gateway.yaml');
  t.equal((onDatabase as Error).message, 'cannot create the SQLite database /srv/db/gateway.sqlite: /srv/db (EROFS: the file system is read-only); set storage.path in gateway.yaml to a file in a folder this user may write');
});

t.test('SQLite refusing to open its file names storage.path, or storage.data_dir where the database lives by default', async (t) => {
  const cannotOpen = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
  t.match((storageFileFailure(cannotOpen, { ...sqlite }, 'gateway.yaml') as Error).message, /^SQLite cannot open \/srv\/db\/gateway\.sqlite for writing \(SQLITE_CANTOPEN\): set storage\.path in gateway\.yaml/);
  t.match((storageFileFailure(cannotOpen, { driver: 'sqlite', data_dir: '/srv/data' }, 'gateway.yaml') as Error).message, /^SQLite cannot open \/srv\/data\/gateway\.sqlite for writing \(SQLITE_CANTOPEN\): set storage\.data_dir in gateway\.yaml/);
});

t.test('any other error is left as it is', async (t) => {
  const elsewhere = errno('EACCES', '/etc/other');
  t.equal(storageFileFailure(elsewhere, { ...sqlite }, 'gateway.yaml'), elsewhere, 'a path that is not the gateway\'s own');
  const unknownCode = errno('ECONNRESET', '/srv/data/x');
  t.equal(storageFileFailure(unknownCode, { ...sqlite }, 'gateway.yaml'), unknownCode, 'a code that is no file system refusal');
  const plain = new Error('boom');
  t.equal(storageFileFailure(plain, { ...sqlite }, 'gateway.yaml'), plain);
  t.equal(storageFileFailure(undefined, { ...sqlite }, 'gateway.yaml'), undefined);
});
