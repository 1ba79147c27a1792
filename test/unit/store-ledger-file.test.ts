import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ledgerFileOf, SqliteStoreBackend } from '../../core/store/sqlite-store-backend.js';

t.test('the sqlite primitives live in a file of their own beside the records, never in the same file', async (t) => {
  t.equal(ledgerFileOf('data/gateway.sqlite'), 'data/gateway-ledger.sqlite');
  t.equal(ledgerFileOf('/var/lib/gateway'), '/var/lib/gateway-ledger.sqlite');
  const directory = t.testdir({});
  const backend = await SqliteStoreBackend.open(join(directory, 'gateway.sqlite'));
  t.teardown(() => backend.close());
  await backend.keyv('records').set('a', 1);
  await backend.writeRemaining('token:1', 5);
  t.ok(existsSync(join(directory, 'gateway.sqlite')));
  t.ok(existsSync(join(directory, 'gateway-ledger.sqlite')));
});
