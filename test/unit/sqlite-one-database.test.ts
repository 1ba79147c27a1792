import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteStoreBackend } from '../../core/store/sqlite-store-backend.js';
import { StoreTokenRepository } from '../../core/tokens/store-token-repository.js';
import { testTokenRecord } from '../helpers/test-token-record.js';

const record = (id: number) => testTokenRecord(id, { user_id: 5 });

/** Makes every write to `table` fail, from another connection to the same file, as a full disk or a crash mid-way would. */
function failWritesTo(file: string, table: string): () => void {
  const saboteur = new Database(file);
  saboteur.exec(`
    CREATE TRIGGER fail_insert BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
    CREATE TRIGGER fail_update BEFORE UPDATE ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`);
  return () => {
    saboteur.exec('DROP TRIGGER fail_insert; DROP TRIGGER fail_update;');
    saboteur.close();
  };
}

t.test('records and primitives live in one database file', async (t) => {
  const directory = t.testdir({});
  const file = join(directory, 'gateway.sqlite');
  const backend = await SqliteStoreBackend.open(file);
  await backend.keyv('records').set('a', 1);
  await backend.writeRemaining('token:1', 5);
  await backend.increment('sequence');
  await backend.close();

  t.same(readdirSync(directory), ['gateway.sqlite'], 'one file, and no WAL left once closed');
  const database = new Database(file, { readonly: true });
  t.teardown(() => database.close());
  t.same(database.prepare('SELECT key, value FROM records').all(), [{ key: 'records:a', value: '{"value":1}' }]);
  t.same(database.prepare('SELECT account, remain, used FROM balances').all(), [{ account: 'token:1', remain: 5, used: 0 }]);
  t.same(database.prepare('SELECT key, value FROM counters').all(), [{ key: 'sequence', value: 1 }]);
});

// Each write of the transaction fails in turn, so whatever order the writes run in, some were
// made before the failure: none of them may remain.
t.test('creating a token writes its record, index, ownership and balance in one transaction', async (t) => {
  const file = join(t.testdir({}), 'gateway.sqlite');
  const backend = await SqliteStoreBackend.open(file);
  t.teardown(() => backend.close());
  const tokens = new StoreTokenRepository(backend);

  for (const table of ['records', 'set_members', 'balances']) {
    const restore = failWritesTo(file, table);
    await t.rejects(tokens.insert(record(1), 100), /injected failure/, `a failing write to ${table} fails the creation`);
    restore();
    t.equal(await tokens.get(1), undefined, 'no record');
    t.equal(await tokens.findIdByKeyHash('hash-1'), undefined, 'no key-hash index');
    t.same(await tokens.idsOfUser(5), [], 'no ownership');
    t.equal((await backend.readBalances(['token:1'])).size, 0, 'no balance');
  }

  await tokens.insert(record(1), 100);
  t.match(await tokens.get(1), { id: 1, remain_quota: 100 }, 'the same creation succeeds once nothing fails');
  t.equal(await tokens.findIdByKeyHash('hash-1'), 1);
});

t.test('an update that sets the remaining quota writes the record and the balance in one transaction', async (t) => {
  const file = join(t.testdir({}), 'gateway.sqlite');
  const backend = await SqliteStoreBackend.open(file);
  t.teardown(() => backend.close());
  const tokens = new StoreTokenRepository(backend);
  await tokens.insert(record(1), 100);

  for (const table of ['records', 'balances']) {
    const restore = failWritesTo(file, table);
    await t.rejects(tokens.update({ ...record(1), name: 'renamed' }, 500), /injected failure/, `a failing write to ${table} fails the update`);
    restore();
    t.match(await tokens.get(1), { name: 'token 1', remain_quota: 100 }, 'neither the new name nor the new quota');
  }
});

t.test('a database whose usage log was written before budgets gains the budget_overrun column and keeps its records', async (t) => {
  const directory = t.testdir({});
  const file = join(directory, 'gateway.sqlite');
  await (await SqliteStoreBackend.open(file)).close();
  // The table as a gateway before budgets wrote it: without the column, with one record.
  const old = new Database(file);
  old.exec('ALTER TABLE usage_logs DROP COLUMN budget_overrun');
  old.exec(`INSERT INTO usage_logs (created_at, type, user_id, token_id, token_name, model_name, upstream_model, operation, client_format, "group", is_stream,
    prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, quota, usage_source, status, error_code, end_reason, use_time_ms, first_byte_ms, request_id, task_id, channel, attempts)
    VALUES (1700000000, 2, 1, 2, 'old', 'gx-2.5-pro', '', 'chat', 'openai', 'default', 0, 1, 2, 0, 0, 3, 'upstream', 200, '', 'completed', 5, 5, 'old-1', '', 'gx-main', '[]')`);
  old.close();
  const backend = await SqliteStoreBackend.open(file);
  t.teardown(() => backend.close());
  const page = await backend.usageLog().page({ user_id: 1 }, 0, 10);
  t.match(page.items, [{ request_id: 'old-1', budget_overrun: '' }]);
});
