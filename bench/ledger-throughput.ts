import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayConfigSchema } from '../core/config/config-schema.js';
import { createStoreBackend } from '../core/store/create-store-backend.js';
import type { StoreBackend } from '../core/store/store-backend.js';

/**
 * The ledger microbenchmark: what each storage driver sustains for the two store calls every
 * billed request makes (a reservation, then its settlement: bare, with the hold the ledger
 * records under a lease, and with that hold counted in one budget window too, with this
 * process's CPU time per pair) and for a rate draw on a key's and a group's bucket, from one process with `CONCURRENCY` calls in flight. `ACCOUNTS` spreads
 * the reservations over that many balances (1: every call on one hot token). Each driver works
 * in a fresh place (a temporary file, a random Redis key prefix, a random PostgreSQL schema)
 * that is removed afterwards.
 *
 *     npm run build && node dist/bench/ledger-throughput.js
 *     DRIVERS=postgres ACCOUNTS=50 SECONDS=10 node dist/bench/ledger-throughput.js
 */
const seconds = Number(process.env.SECONDS ?? 5);
const concurrency = Number(process.env.CONCURRENCY ?? 50);
const accounts = Number(process.env.ACCOUNTS ?? 1);
const drivers = (process.env.DRIVERS ?? 'sqlite,redis,postgres').split(',');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://127.0.0.1:5432/test';

/** Runs `operation` from `concurrency` loops for `seconds` and returns how many completed per second. */
async function perSecond(operation: (loop: number) => Promise<unknown>): Promise<number> {
  return (await measured(operation)).perSecond;
}

/** {@link perSecond}, and this process's CPU microseconds (user and system) per completed operation. */
async function measured(operation: (loop: number) => Promise<unknown>): Promise<{ perSecond: number; cpuMicroseconds: number }> {
  let completed = 0;
  const end = Date.now() + seconds * 1000;
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (Date.now() < end) {
        await operation(loop);
        completed += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { perSecond: Math.round(completed / seconds), cpuMicroseconds: Math.round((cpu.user + cpu.system) / Math.max(1, completed)) };
}

let holds = 0;
const lease = () => ({ id: `bench-${holds++}`, owner: 'bench', leaseMilliseconds: 60_000 });

async function measure(driver: string, backend: StoreBackend): Promise<void> {
  for (let index = 0; index < accounts; index += 1) await backend.writeRemaining(`bench:${index}`, 1e15);
  const pairs = await perSecond(async (loop) => {
    const account = `bench:${loop % accounts}`;
    await backend.reserve(account, 10);
    await backend.settle(account, 10, 7);
  });
  // What the ledger does: the hold under a lease, then the same with one budget window (a token's day).
  const held = await measured(async (loop) => {
    const account = `bench:${loop % accounts}`;
    const hold = lease();
    await backend.reserve(account, 10, hold);
    await backend.settle(account, 10, 7, hold.id);
  });
  const budgeted = await measured(async (loop) => {
    const account = `bench:${loop % accounts}`;
    const hold = lease();
    const window = { key: `token:${loop % accounts}:daily:bench`, limit: 1e15, hard: true, endsAt: Date.now() + 86_400_000 };
    await backend.reserve(account, 10, hold, { windows: [window], unlimited: false });
    await backend.settle(account, 10, 7, hold.id, { budget: true });
  });
  const draws = await perSecond((loop) =>
    backend.drawRates([
      { key: `bench:key:${loop % accounts}`, amount: 1, capacity: 1e9, windowMilliseconds: 60_000 },
      { key: 'bench:group', amount: 1, capacity: 1e9, windowMilliseconds: 60_000 },
    ]),
  );
  console.log(
    `${driver}: ${pairs} reserve+settle pairs/s; with a hold ${held.perSecond}/s (${held.cpuMicroseconds} us CPU a pair); with a hold and one budget window ${budgeted.perSecond}/s (${budgeted.cpuMicroseconds} us CPU a pair); ${draws} two-bucket rate draws/s (${concurrency} in flight, ${accounts} account${accounts === 1 ? '' : 's'})`,
  );
}

const directory = mkdtempSync(join(tmpdir(), 'ledger-throughput-'));
const schema = `mg_bench_${randomBytes(4).toString('hex')}`;
const prefix = `mg-bench-${randomBytes(4).toString('hex')}:`;
const storages: Record<string, Record<string, unknown>> = {
  memory: { driver: 'memory' },
  sqlite: { driver: 'sqlite', path: join(directory, 'gateway.sqlite') },
  redis: { driver: 'redis', url: redisUrl, key_prefix: prefix },
  postgres: { driver: 'postgres', url: postgresUrl, schema },
};
try {
  for (const driver of drivers) {
    const storage = storages[driver];
    if (storage === undefined) throw new Error(`unknown driver ${driver}; expected some of ${Object.keys(storages).join(', ')}`);
    const backend = await createStoreBackend(gatewayConfigSchema.shape.storage.parse({ ...storage, data_dir: directory }));
    try {
      await measure(driver, backend);
    } finally {
      await backend.close();
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
  if (drivers.includes('postgres')) {
    const { default: pg } = await import('pg');
    const { withDefaultUser } = await import('../core/store/postgres-store-backend.js');
    const client = new pg.Client({ connectionString: withDefaultUser(postgresUrl) });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    await client.end();
  }
  if (drivers.includes('redis')) {
    const { createClient } = await import('@redis/client');
    const client = createClient({ url: redisUrl });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
    await client.close();
  }
}
