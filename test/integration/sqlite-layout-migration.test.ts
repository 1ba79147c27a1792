import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { InjectionTokens } from '../../core/di/injection-tokens.js';
import type { StoreBackend } from '../../core/store/store-backend.js';
import { SqliteStoreBackend } from '../../core/store/sqlite-store-backend.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { testConfig } from '../helpers/test-config.js';

// A data directory written by the two-file driver itself (see its README.md).
const fixture = fileURLToPath(new URL('../fixtures/storage/sqlite-two-file-layout/', import.meta.url));
const expected = JSON.parse(readFileSync(join(fixture, 'expected.json'), 'utf8')) as {
  loginToken: string;
  tokens: Array<{ id: number; key: string }>;
  listed: { items: Array<{ id: number; name: string }>; total: number };
};
const primitiveTables = ['counters', 'windows', 'set_members', 'balances', 'rate_buckets'];

/** A fresh copy of the fixture's data directory. */
function copyOfOldLayout(t: Test): string {
  const directory = t.testdir({});
  for (const name of ['gateway.sqlite', 'gateway-ledger.sqlite', 'admin-login-token']) copyFileSync(join(fixture, name), join(directory, name));
  return directory;
}

function configFor(directory: string) {
  return testConfig(gatewayConfigSchema.shape.storage.parse({ driver: 'sqlite', data_dir: directory, path: join(directory, 'gateway.sqlite') }));
}

/** Every row of the given tables of a database file, in a stable order. */
function rowsOf(file: string, tables: readonly string[]): Record<string, unknown[]> {
  const database = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(tables.map((table) => [table, database.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]));
  } finally {
    database.close();
  }
}

function userVersionOf(file: string): number {
  const database = new Database(file, { readonly: true });
  try {
    return Number(database.pragma('user_version', { simple: true }));
  } finally {
    database.close();
  }
}

function callModels(gateway: TestApp, key: string) {
  return gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer sk-${key}` } });
}

t.test('opening a two-file data directory moves every row of both files into the one database', async (t) => {
  const directory = copyOfOldLayout(t);
  const before = { ...rowsOf(join(fixture, 'gateway.sqlite'), ['records']), ...rowsOf(join(fixture, 'gateway-ledger.sqlite'), primitiveTables) };
  t.ok(before.records!.length > 10 && Object.values(before).every((rows) => rows.length > 0), 'the fixture has rows in every table');

  const backend = await SqliteStoreBackend.open(join(directory, 'gateway.sqlite'));
  await backend.close();

  t.same(readdirSync(directory).sort(), ['admin-login-token', 'gateway-ledger.sqlite.migrated', 'gateway.sqlite'], 'one database; the old ledger kept under another name');
  // Read only after listing: a read-only connection to a WAL database leaves its -wal and -shm files behind.
  t.same(rowsOf(join(directory, 'gateway.sqlite'), ['records', ...primitiveTables]), before, 'every row, unchanged');
  t.same(rowsOf(join(directory, 'gateway-ledger.sqlite.migrated'), primitiveTables), rowsOf(join(fixture, 'gateway-ledger.sqlite'), primitiveTables), 'the kept ledger is intact');
});

t.test('a gateway started on a copy of the two-file layout serves every token, key and balance it held', async (t) => {
  const directory = copyOfOldLayout(t);
  const gateway = await buildTestApp(t, 'sqlite', {}, { config: configFor(directory) });
  t.match(gateway.logLines.join(''), 'merged the quota ledger of the two-file SQLite layout', 'the operator is told');
  t.notMatch(gateway.logLines.join(''), 'created the first admin user', 'the store is not mistaken for an empty one');

  const listed = await gateway.asUser(expected.loginToken, { method: 'GET', url: '/api/token/?size=100' });
  t.equal(listed.statusCode, 200, "alice's login token still signs in");
  // The fixture was written before tokens had budgets: an old token reads with none.
  const withoutBudgets = { budget_daily: null, budget_weekly: null, budget_monthly: null, budget_mode: 'hard', budgets: [] };
  t.same(listed.json().data, { ...expected.listed, items: expected.listed.items.map((item) => ({ ...item, ...withoutBudgets })) }, 'every token with its balance, usage, status and access time');
  for (const { id, key } of expected.tokens) {
    const revealed = await gateway.asUser(expected.loginToken, { method: 'POST', url: `/api/token/${id}/key` });
    t.equal(revealed.json().data.key, key, `token ${id} reveals the same key`);
  }
  const keyOf = (name: string) => {
    const id = expected.listed.items.find((item) => item.name === name)?.id;
    return expected.tokens.find((token) => token.id === id)?.key ?? '';
  };
  t.equal((await callModels(gateway, keyOf('spent'))).statusCode, 200, 'a token with quota left authenticates');
  t.equal((await callModels(gateway, keyOf('unlimited'))).statusCode, 200);
  t.equal((await callModels(gateway, keyOf('disabled'))).statusCode, 401, 'the disabled token stays refused');

  const created = await gateway.asUser(expected.loginToken, { method: 'POST', url: '/api/token/', payload: { name: 'after migration', remain_quota: 5 } });
  t.equal(created.json().success, true);
  const page = (await gateway.asUser(expected.loginToken, { method: 'GET', url: '/api/token/?size=1' })).json().data;
  t.equal(page.items[0].id, 4, 'token ids keep counting from the migrated sequence');
});

t.test('the migration runs once: a restart neither copies again nor undoes what changed since', async (t) => {
  const directory = copyOfOldLayout(t);
  const config = configFor(directory);
  const first = await buildTestApp(t, 'sqlite', {}, { config });
  const backend = first.app.gateway.resolve<StoreBackend>(InjectionTokens.storeBackend);
  await backend.reserve('token:1', 100);
  await backend.settle('token:1', 100, 80);
  const afterSpending = await backend.readBalances(['token:1']);
  t.same(afterSpending.get('token:1'), { remain: 99_600, used: 400 });
  await first.app.close();

  // A crash after the migration committed and before the ledger was renamed leaves it where it was.
  copyFileSync(join(fixture, 'gateway-ledger.sqlite'), join(directory, 'gateway-ledger.sqlite'));
  const second = await buildTestApp(t, 'sqlite', {}, { config });
  t.match(second.logLines.join(''), 'was already merged', 'the leftover ledger is recognised');
  t.same(await second.app.gateway.resolve<StoreBackend>(InjectionTokens.storeBackend).readBalances(['token:1']), afterSpending, 'and not copied again');
  t.notOk(existsSync(join(directory, 'gateway-ledger.sqlite')), 'it is renamed aside');
  t.equal(readdirSync(directory).filter((name) => name.startsWith('gateway-ledger.sqlite.migrated-')).length, 1, 'beside the first one, not over it');
  await second.app.close();

  const third = await buildTestApp(t, 'sqlite', {}, { config });
  t.notMatch(third.logLines.join(''), 'ledger', 'a start without a ledger file says nothing about one');
  t.same(await third.app.gateway.resolve<StoreBackend>(InjectionTokens.storeBackend).readBalances(['token:1']), afterSpending);
});

t.test('a ledger that cannot be merged whole stops the start and leaves the old layout as it was', async (t) => {
  const directory = copyOfOldLayout(t);
  const ledgerFile = join(directory, 'gateway-ledger.sqlite');
  const ledger = new Database(ledgerFile);
  ledger.exec("CREATE TABLE surprise (key TEXT); INSERT INTO surprise VALUES ('x')");
  ledger.close();

  await t.rejects(SqliteStoreBackend.open(join(directory, 'gateway.sqlite')), /gateway-ledger\.sqlite holds tables this gateway does not know \(surprise\)/);
  t.equal(userVersionOf(join(directory, 'gateway.sqlite')), 0, 'the records file is not marked migrated');
  t.same(rowsOf(join(directory, 'gateway.sqlite'), ['sqlite_master']).length, rowsOf(join(fixture, 'gateway.sqlite'), ['sqlite_master']).length, 'and got no new tables');
  t.same(rowsOf(ledgerFile, primitiveTables), rowsOf(join(fixture, 'gateway-ledger.sqlite'), primitiveTables), 'the ledger keeps its name and rows');

  const unmergeable = new Database(ledgerFile);
  unmergeable.exec('DROP TABLE surprise');
  unmergeable.close();
  const backend = await SqliteStoreBackend.open(join(directory, 'gateway.sqlite'));
  t.teardown(() => backend.close());
  t.same((await backend.readBalances(['token:1'])).get('token:1'), { remain: 99_680, used: 320 }, 'once the operator has dealt with it, the migration goes through');
});
