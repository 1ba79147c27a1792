import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend, StoreEntry } from '../../core/store/store-backend.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

/** Drivers whose import is one transaction: a failure leaves nothing written. */
const transactionalImport: ReadonlySet<string> = new Set(['sqlite', 'postgres']);

async function* entriesOf(entries: readonly StoreEntry[]): AsyncGenerator<StoreEntry> {
  yield* entries;
}

/** The export, sorted, with set members sorted and each window's reset rounded to the second (Redis keeps it as a TTL). */
async function sorted(source: AsyncIterable<StoreEntry>): Promise<StoreEntry[]> {
  const entries: StoreEntry[] = [];
  for await (const entry of source) {
    entries.push(entry.kind === 'set' ? { ...entry, members: [...entry.members].sort() } : entry.kind === 'window' ? { ...entry, resetAt: Math.round(entry.resetAt / 1000) } : entry);
  }
  return entries.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const exported = (backend: StoreBackend) => sorted(backend.exportEntries());

for (const driver of storageDrivers) {
  t.test(`export and import on the ${driver} store backend`, async (t) => {
    t.test('a fresh store exports nothing', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      t.same(await exported(backend), []);
    });

    t.test('what an import takes, the export gives back, and the primitives carry on from it', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      const inAnHour = Date.now() + 3_600_000;
      const entries: StoreEntry[] = [
        { kind: 'record', key: 'users:1', value: JSON.stringify({ value: { id: 1, username: 'alice' } }) },
        { kind: 'record', key: 'plugin:vo:tasks:operations:abc:1', value: JSON.stringify({ value: { note: 'a key with colons' } }) },
        { kind: 'record', key: 'affinity:resp_1', value: JSON.stringify({ value: 'gp-east', expires: inAnHour }) },
        { kind: 'set', key: 'user-tokens:1', members: ['1', '2'] },
        { kind: 'counter', key: 'token-id', value: 41 },
        { kind: 'window', key: 'task-settled:video_1', count: 1, resetAt: inAnHour },
        { kind: 'balance', account: 'token:1', remain: 500, used: 20 },
        { kind: 'balance', account: 'token:2', remain: 100, used: 0 },
        { kind: 'hold', id: 'hold-a', account: 'token:2', units: 40, owner: 'instance-a', expiresAt: Date.now() - 1000 },
        { kind: 'hold', id: 'hold-task', account: 'token:2', units: 25, owner: 'instance-a', expiresAt: null },
      ];
      await backend.importEntries(entriesOf(entries));
      t.same(await exported(backend), await sorted(entriesOf(entries)));
      t.same(await backend.keyv('users').get('1'), { id: 1, username: 'alice' });
      t.same(await backend.keyv('plugin:vo:tasks').get('operations:abc:1'), { note: 'a key with colons' }, "a plugin's namespace and a key with ':' are told apart");
      t.equal(await backend.keyv('affinity').get('resp_1'), 'gp-east');
      t.same((await backend.setMembers('user-tokens:1')).sort(), ['1', '2']);
      t.equal(await backend.increment('token-id'), 42, 'the id sequence continues');
      t.equal((await backend.hitWindow('task-settled:video_1', 1000)).count, 2, 'the claim is still taken');
      t.same(await backend.reserve('token:1', 100), { granted: true, remain: 400 });
      t.same(await backend.settle('token:1', 100, 30), { remain: 470, used: 50, charged: 30, held: true });
      t.same(await backend.sweepHolds(10), [{ id: 'hold-a', account: 'token:2', units: 40 }], "an imported hold whose lease ran out is swept; a task's is not");
      t.same(await backend.settle('token:2', 25, 25, 'hold-task'), { remain: 140, used: 25, charged: 25, held: true }, "the task's hold is still there to settle");
    });

    t.test('a store larger than one page exports every entry once', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      const entries: StoreEntry[] = [
        ...Array.from({ length: 1234 }, (_, index): StoreEntry => ({ kind: 'record', key: `tokens:${index}`, value: JSON.stringify({ value: index }) })),
        ...Array.from({ length: 601 }, (_, index): StoreEntry => ({ kind: 'set', key: `user-tokens:${index}`, members: [String(index), `${index}-b`] })),
        ...Array.from({ length: 777 }, (_, index): StoreEntry => ({ kind: 'balance', account: `token:${index}`, remain: index, used: 1 })),
      ];
      await backend.importEntries(entriesOf(entries));
      t.same(await exported(backend), await sorted(entriesOf(entries)));
    });

    t.test('rate buckets and concurrency slots are transient and not exported', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      await backend.drawRates([{ key: 'key:1', amount: 1, capacity: 10, windowMilliseconds: 60_000 }]);
      await backend.acquireSlots([{ key: 'token:1', limit: 2 }], { id: 'slot-1', owner: 'instance-a', leaseMilliseconds: 60_000 });
      t.same(await exported(backend), []);
    });

    t.test('a window that has reset is not exported', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      await backend.hitWindow('key-reveal:1', 5);
      await new Promise((resolve) => setTimeout(resolve, 30));
      t.same(await exported(backend), []);
    });

    if (transactionalImport.has(driver)) {
      t.test('an import that fails part way writes nothing', async (t) => {
        const backend = await createStoreBackend(storageFor(t, driver));
        t.teardown(() => backend.close());
        async function* failing(): AsyncGenerator<StoreEntry> {
          yield { kind: 'counter', key: 'user-id', value: 7 };
          yield { kind: 'balance', account: 'token:1', remain: 1, used: 0 };
          throw new Error('the source went away');
        }
        await t.rejects(backend.importEntries(failing()), /the source went away/);
        t.same(await exported(backend), []);
      });
    }
  });
}
