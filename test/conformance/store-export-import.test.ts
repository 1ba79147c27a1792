import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend, StoreEntry } from '../../core/store/store-backend.js';
import type { UsageRecord } from '../../core/usage/usage-record.js';
import type { AuditRecord } from '../../core/audit/audit-record.js';
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

/** A usage record of user 1 with `id`, at `createdAt`, whose one attempt ended as `outcome`. */
function usageRecord(id: number, createdAt: number, outcome: 'success' | 'failed'): UsageRecord {
  const failed = outcome === 'failed';
  return {
    id,
    created_at: createdAt,
    type: failed ? 5 : 2,
    user_id: 1,
    token_id: 2,
    token_name: 'imported',
    model_name: 'gx-2.5-pro',
    upstream_model: failed ? '' : 'gx-2.5-pro-002',
    operation: 'chat',
    client_format: 'openai',
    group: 'default',
    is_stream: failed,
    prompt_tokens: 12,
    completion_tokens: failed ? 0 : 34,
    cached_tokens: 0,
    reasoning_tokens: 5,
    quota: failed ? 0 : 99,
    usage_source: failed ? 'estimated' : 'upstream',
    status: failed ? 502 : 200,
    error_code: failed ? 'upstream_error' : '',
    end_reason: failed ? 'upstream_error' : 'completed',
    budget_overrun: failed ? '' : 'token:daily',
    use_time_ms: 80,
    first_byte_ms: 40,
    request_id: `imported-${id}`,
    task_id: '',
    channel: 'gx-main',
    attempts: [failed ? { channel: 'gx-main', group: 'default', outcome: 'failed', status: 502, code: 'upstream_error', milliseconds: 30 } : { channel: 'gx-main', group: 'default', outcome: 'success', milliseconds: 30 }],
  };
}

/** A change of token 2 by user 1 with `id`, at `createdAt`. */
function auditRecord(id: number, createdAt: number): AuditRecord {
  return {
    id,
    created_at: createdAt,
    action: 'token.update',
    user_id: 1,
    username: 'alice',
    ip: '203.0.113.7',
    source: 'api',
    request_id: `audited-${id}`,
    target_id: '2',
    target_name: 'imported',
    before: { status: 1, model_limits: ['gx-3'] },
    after: { status: 2, model_limits: ['gx-3'] },
  };
}

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
        // Oldest first, as every export gives them.
        { kind: 'usage', record: usageRecord(3, 1_700_000_000, 'success') },
        { kind: 'usage', record: usageRecord(7, 1_700_000_100, 'failed') },
        { kind: 'audit', record: auditRecord(4, 1_700_000_000) },
        { kind: 'audit', record: auditRecord(9, 1_700_000_050) },
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
      t.same((await backend.usageLog().page({ user_id: 1 }, 0, 10)).items.map((record) => record.id), [7, 3], 'the usage log reads the imported records, newest first');
      const { id: _importedId, ...next } = usageRecord(0, 1_700_000_200, 'success');
      await backend.usageLog().append([next]);
      t.equal((await backend.usageLog().page({ start_timestamp: 1_700_000_200 }, 0, 1)).items[0]?.id, 8, "a new record's id follows the largest imported one");
      t.same((await backend.auditLog().page({}, 0, 10)).items.map((record) => record.id), [9, 4], 'the audit trail reads the imported records, newest first');
      const { id: _auditId, ...change } = auditRecord(0, 1_700_000_300);
      t.equal((await backend.auditLog().append(change)).id, 10, "a new audit record's id follows the largest imported one");
    });

    t.test('a store larger than one page exports every entry once', async (t) => {
      const backend = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => backend.close());
      const entries: StoreEntry[] = [
        ...Array.from({ length: 1234 }, (_, index): StoreEntry => ({ kind: 'record', key: `tokens:${index}`, value: JSON.stringify({ value: index }) })),
        ...Array.from({ length: 601 }, (_, index): StoreEntry => ({ kind: 'set', key: `user-tokens:${index}`, members: [String(index), `${index}-b`] })),
        ...Array.from({ length: 777 }, (_, index): StoreEntry => ({ kind: 'balance', account: `token:${index}`, remain: index, used: 1 })),
        ...Array.from({ length: 620 }, (_, index): StoreEntry => ({ kind: 'usage', record: usageRecord(index + 1, 1_700_000_000 + index, index % 3 === 0 ? 'failed' : 'success') })),
        ...Array.from({ length: 530 }, (_, index): StoreEntry => ({ kind: 'audit', record: auditRecord(index + 1, 1_700_000_000 + index) })),
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
