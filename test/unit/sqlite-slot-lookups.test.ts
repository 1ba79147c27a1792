import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteStoreBackend } from '../../core/store/sqlite-store-backend.js';

// A request frees its concurrency slot by the slot's id (and the lease keeper renews slots by
// id), inside the write transaction every worker on the file waits for. Without an index on
// the id each of those reads every slot in flight: the cost of one release grows with the
// number of requests in flight (2,000 slots: about 20 times the cost of an indexed delete).

t.test('a SQLite store finds a concurrency slot by its id through an index, however many slots are in flight', async (t) => {
  const file = join(t.testdir({}), 'gateway.sqlite');
  const backend = await SqliteStoreBackend.open(file);
  await backend.close();
  const database = new Database(file, { readonly: true });
  t.teardown(() => database.close());
  const plan = (statement: string, ...parameters: unknown[]) =>
    database
      .prepare(`EXPLAIN QUERY PLAN ${statement}`)
      .all(...parameters)
      .map((row) => (row as { detail: string }).detail)
      .join('; ');
  t.match(plan('DELETE FROM slots WHERE id = ?', 'instance-a-1'), /SEARCH slots USING (COVERING )?INDEX/, 'freeing a slot searches by its id');
  t.notMatch(plan('DELETE FROM slots WHERE id = ?', 'instance-a-1'), /SCAN slots/, 'and reads no other slot');
  t.notMatch(plan('UPDATE slots SET expires_at = ? WHERE id IN (SELECT value FROM json_each(?))', 1, '["instance-a-1"]'), /SCAN slots/, 'renewing slots reads only the renewed ones');
});
