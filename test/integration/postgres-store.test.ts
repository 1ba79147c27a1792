import pg from 'pg';
import t from 'tap';
import { PostgresStoreBackend, withDefaultUser } from '../../core/store/postgres-store-backend.js';
import { missedMessages } from '../../core/store/store-backend.js';
import { postgresUrl, storageFor } from '../helpers/test-config.js';

/** A query on the tests' database through a connection of its own. */
async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: withDefaultUser(postgresUrl) });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Ends every connection the backends on `schema` hold, from the server's side. */
async function terminateConnectionsOf(schema: string): Promise<number> {
  const rows = await query<{ terminated: boolean }>('SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1', [`model-gateway/${schema}`]);
  return rows.filter((row) => row.terminated).length;
}

const until = async (condition: () => boolean | Promise<boolean>, milliseconds = 5000) => {
  const deadline = Date.now() + milliseconds;
  while (!(await condition()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
};

t.test('the first start creates the schema and its tables; later starts find them and change nothing', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const first = await PostgresStoreBackend.open(postgresUrl, schema);
  await first.writeRemaining('token:1', 40);
  await first.close();
  const tables = await query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
  t.same(
    tables.map((row) => row.table_name),
    ['audit_logs', 'balances', 'budget_windows', 'counters', 'hold_budgets', 'holds', 'rate_buckets', 'records', 'schema_migrations', 'set_members', 'slots', 'usage_logs', 'windows'],
  );
  const second = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => second.close());
  t.same((await second.readBalances(['token:1'])).get('token:1'), { remain: 40, used: 0 }, 'the data of the first start is there');
  const versions = await query<{ version: number }>(`SELECT version FROM ${pg.escapeIdentifier(schema as string)}.schema_migrations`);
  t.same(versions, [{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }, { version: 6 }, { version: 7 }], 'each migration is applied once');
});

t.test('instances starting together on a new schema migrate it once between them', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backends = await Promise.all(Array.from({ length: 4 }, () => PostgresStoreBackend.open(postgresUrl, schema)));
  t.teardown(() => Promise.all(backends.map((backend) => backend.close())));
  await backends[0]!.writeRemaining('token:1', 5);
  t.same((await backends[3]!.readBalances(['token:1'])).get('token:1'), { remain: 5, used: 0 });
});

t.test('a schema written by a newer gateway is refused with a message saying to upgrade', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  await (await PostgresStoreBackend.open(postgresUrl, schema)).close();
  await query(`INSERT INTO ${pg.escapeIdentifier(schema as string)}.schema_migrations (version) VALUES (99)`);
  await t.rejects(PostgresStoreBackend.open(postgresUrl, schema), /written by a newer gateway .*upgrade this gateway/);
});

t.test('a database that does not answer fails the start with a message naming storage.url', async (t) => {
  await t.rejects(PostgresStoreBackend.open('postgres://127.0.0.1:9/test', 'model_gateway', 1000), /check storage\.url/);
});

t.test('after its connections are cut, a subscriber hears it may have missed messages, then hears new ones', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backend = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => backend.close());
  const other = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => other.close());
  const heard: string[] = [];
  await backend.subscribe('tokens', (message) => heard.push(message));
  await other.publish('tokens', '1');
  t.ok(await until(() => heard.includes('1')), 'a message from another connection arrives');

  t.ok((await terminateConnectionsOf(schema as string)) > 0, 'the server ended the connections');
  t.ok(await until(() => heard.includes(missedMessages)), 'the subscriber is told to assume anything changed');
  t.same(heard.filter((message) => message === missedMessages), [missedMessages], 'once');
  await t.resolves(backend.ping(), 'ready again');

  await other.publish('tokens', '2');
  t.ok(await until(() => heard.includes('2')), 'messages arrive again');
  t.same((await backend.readBalances(['none'])).size, 0, 'and queries are served again');
});

t.test('messages of one schema never reach a backend on another schema of the same database', async (t) => {
  const first = await PostgresStoreBackend.open(postgresUrl, storageFor(t, 'postgres').schema);
  t.teardown(() => first.close());
  const second = await PostgresStoreBackend.open(postgresUrl, storageFor(t, 'postgres').schema);
  t.teardown(() => second.close());
  const heard: string[] = [];
  await second.subscribe('tokens', (message) => heard.push(`second:${message}`));
  await first.subscribe('tokens', (message) => heard.push(`first:${message}`));
  await first.publish('tokens', '7');
  await first.publish('other-channel', '8');
  t.ok(await until(() => heard.includes('first:7')));
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.same(heard, ['first:7']);
});

t.test('expired records nobody reads again are removed from the table; records without a TTL stay', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backend = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => backend.close());
  const affinity = backend.keyv<string>('affinity');
  await affinity.set('resp_brief', 'gp-west', 50);
  await affinity.setMany([
    { key: 'resp_brief_too', value: 'gp-east', ttl: 50 },
    { key: 'resp_kept', value: 'gp-east', ttl: 3_600_000 },
  ]);
  await backend.writeTogether({ records: [{ namespace: 'affinity', key: 'permanent', value: 'gp-main' }] });
  await affinity.set('rewritten', 'first', 50);
  await backend.writeTogether({ records: [{ namespace: 'affinity', key: 'rewritten', value: 'second' }] });
  await new Promise((resolve) => setTimeout(resolve, 150));

  t.equal(await backend.removeExpiredRecords(0), 2, 'the two expired records, and only they');
  const keys = await query<{ key: string }>(`SELECT key FROM ${pg.escapeIdentifier(schema as string)}.records ORDER BY key`);
  t.same(
    keys.map((row) => row.key),
    ['affinity:permanent', 'affinity:resp_kept', 'affinity:rewritten'],
    'a record rewritten without a TTL no longer expires',
  );
  await affinity.set('resp_recent', 'gp-west', 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(await backend.removeExpiredRecords(), 0, 'by default a record is kept for a grace minute past its expiry');
});
