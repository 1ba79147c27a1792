import pg from 'pg';
import t, { type Test } from 'tap';
import { PostgresGroupCommit } from '../../core/store/postgres-group-commit.js';
import { PostgresStoreBackend, withDefaultUser } from '../../core/store/postgres-store-backend.js';
import { postgresUrl, storageFor } from '../helpers/test-config.js';

/** A connection of the test's own to the tests' database, ended when the test ends. */
async function connect(t: Test): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: withDefaultUser(postgresUrl) });
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.end().catch(() => {}));
  return client;
}

const until = async (condition: () => Promise<boolean>, milliseconds = 10_000) => {
  const deadline = Date.now() + milliseconds;
  while (!(await condition()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
};

t.test('200 concurrent reservations against a balance that fits 50 grant exactly 50, in one transaction', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const client = await connect(t);
  const table = `${pg.escapeIdentifier(schema as string)}.ledger`;
  await client.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema as string)}`);
  await client.query(`CREATE TABLE ${table} (account text PRIMARY KEY, remain bigint NOT NULL, transaction_ids bigint[] NOT NULL DEFAULT '{}')`);
  await client.query(`INSERT INTO ${table} VALUES ('token:1', 500)`);
  const pool = new pg.Pool({ connectionString: withDefaultUser(postgresUrl), max: 4 });
  t.teardown(() => pool.end());
  let connections = 0;
  const connectPooled = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = () => ((connections += 1), connectPooled());
  const groupCommit = new PostgresGroupCommit(pool);
  // The reservation statement of the driver, which also records the transaction that ran it.
  const reserve = `
    UPDATE ${table} SET remain = remain - $2::bigint, transaction_ids = transaction_ids || txid_current()
    WHERE account = $1 AND remain >= $2::bigint RETURNING remain`;
  const results = await Promise.all(Array.from({ length: 200 }, () => groupCommit.run<{ remain: string }>('token:1', reserve, ['token:1', 10])));
  const granted = results.filter((result) => result.rowCount === 1);
  t.equal(granted.length, 50, 'exactly as many as the balance fits');
  t.same(
    granted.map((result) => Number(result.rows[0]?.remain)),
    Array.from({ length: 50 }, (_, index) => 490 - 10 * index),
    'each granted call sees the ones before it',
  );
  t.ok(
    results.slice(50).every((result) => result.rowCount === 0),
    'the first 50 in arrival order were granted',
  );
  const { rows } = await client.query<{ remain: string; transactions: number }>(`SELECT remain, cardinality(ARRAY(SELECT DISTINCT unnest(transaction_ids))) AS transactions FROM ${table}`);
  t.same(rows, [{ remain: '0', transactions: 1 }], 'the balance is spent, all by one transaction, and committed when the calls resolved');
  t.equal(connections, 1, 'one pooled connection for the batch');
});

t.test('reservations and settlements of one turn on two accounts each get the result they would get alone, in order', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backend = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => backend.close());
  await Promise.all([backend.writeRemaining('token:b', 100), backend.writeRemaining('token:a', 20)]);
  // token:b arrives first but sorts after token:a: the batch runs token:a's calls first.
  const results = await Promise.all([
    backend.reserve('token:b', 30),
    backend.reserve('token:a', 15),
    backend.reserve('token:b', 50),
    backend.reserve('token:a', 15),
    backend.reserve('token:b', 40),
    backend.settle('token:b', 30, 10),
    backend.settle('token:a', 15, 20),
    backend.reserve('token:b', 40),
    backend.addUsed('token:a', 3),
    backend.writeRemaining('token:a', 7),
    backend.reserve('token:a', 7),
  ]);
  t.same(results, [
    { granted: true, remain: 70 },
    { granted: true, remain: 5 },
    { granted: true, remain: 20 },
    { granted: false, remain: 5 },
    { granted: false, remain: 20 },
    { remain: 40, used: 10, charged: 10, held: true },
    { remain: 0, used: 20, charged: 20, held: true },
    { granted: true, remain: 0 },
    undefined,
    undefined,
    { granted: true, remain: 0 },
  ]);
  t.same(Object.fromEntries(await backend.readBalances(['token:a', 'token:b'])), { 'token:a': { remain: 0, used: 23 }, 'token:b': { remain: 0, used: 10 } });
});

t.test('a call the database refuses for its value fails alone; the others of its batch commit', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backend = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => backend.close());
  await backend.writeRemaining('token:1', 100);
  const [first, refused, last] = await Promise.allSettled([backend.reserve('token:1', 30), backend.writeRemaining('token:2', 1.5), backend.reserve('token:1', 30)]);
  t.same(first, { status: 'fulfilled', value: { granted: true, remain: 70 } });
  t.equal(refused.status, 'rejected');
  t.match((refused as PromiseRejectedResult).reason, { code: '22P02' }, 'the database refused 1.5 as a bigint');
  t.same(last, { status: 'fulfilled', value: { granted: true, remain: 40 } });
  t.same((await backend.readBalances(['token:1', 'token:2'])).get('token:1'), { remain: 40, used: 0 });
});

t.test('a batch whose connection is terminated rejects each of its calls; the next batch works', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const backend = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => backend.close());
  await backend.writeRemaining('token:1', 100);
  // Another session holds the row, so the batch waits on its lock, in flight.
  const holder = await connect(t);
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM ${pg.escapeIdentifier(schema as string)}.balances WHERE account = 'token:1' FOR UPDATE`);
  const batch = Promise.allSettled([backend.reserve('token:1', 10), backend.settle('token:1', 10, 5), backend.reserve('token:1', 20), backend.addUsed('token:1', 1)]);
  const waiting = async () =>
    (
      await holder.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [`model-gateway/${schema}`])
    ).rows;
  t.ok(await until(async () => (await waiting()).length === 1), 'the batch waits on the row');
  const killer = await connect(t);
  await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = $2', [`model-gateway/${schema}`, 'Lock']);
  const outcomes = await batch;
  t.equal(outcomes.length, 4);
  for (const outcome of outcomes) {
    t.equal(outcome.status, 'rejected', 'no call of the lost batch is acknowledged');
    t.match((outcome as PromiseRejectedResult).reason, { message: /terminat/ });
  }
  await holder.query('ROLLBACK');
  t.same(await backend.reserve('token:1', 10), { granted: true, remain: 90 }, 'nothing of the lost batch was written, and the next batch commits');
  t.same((await backend.readBalances(['token:1'])).get('token:1'), { remain: 90, used: 0 });
});

t.test('two processes hammering the same two accounts in opposite orders never deadlock', async (t) => {
  const { schema } = storageFor(t, 'postgres');
  const first = await PostgresStoreBackend.open(postgresUrl, schema);
  const second = await PostgresStoreBackend.open(postgresUrl, schema);
  t.teardown(() => Promise.all([first.close(), second.close()]));
  await Promise.all([first.writeRemaining('token:a', 1_000_000), first.writeRemaining('token:b', 1_000_000)]);
  const rounds = 150;
  const hammer = async (backend: PostgresStoreBackend, accounts: readonly string[]) => {
    for (let round = 0; round < rounds; round += 1) {
      // Both calls in one turn, so in one batch: arrival order a then b here, b then a in the other process.
      const reservations = await Promise.all(accounts.map((account) => backend.reserve(account, 1)));
      if (reservations.some((reservation) => !reservation.granted)) throw new Error('a reservation was refused');
      await Promise.all(accounts.map((account) => backend.settle(account, 1, 1)));
    }
  };
  const outcomes = await Promise.allSettled([hammer(first, ['token:a', 'token:b']), hammer(second, ['token:b', 'token:a']), hammer(first, ['token:b', 'token:a']), hammer(second, ['token:a', 'token:b'])]);
  t.same(
    outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'fulfilled')),
    ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
    'no call failed (a deadlock would reject a batch with 40P01)',
  );
  t.same(Object.fromEntries(await first.readBalances(['token:a', 'token:b'])), {
    'token:a': { remain: 1_000_000 - 4 * rounds, used: 4 * rounds },
    'token:b': { remain: 1_000_000 - 4 * rounds, used: 4 * rounds },
  });
});
