import t from 'tap';
import type { AuditFilter } from '../../core/audit/audit-log-store.js';
import type { NewAuditRecord } from '../../core/audit/audit-record.js';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

// 2023-11-14 22:13:20 UTC; a day is 86400 seconds.
const base = 1_700_000_000;
const day = 86_400;

/** A change of `action` by user `userId` at `createdAt`, with `fields` replacing the rest. */
function auditRecord(userId: number, createdAt: number, fields: Partial<NewAuditRecord> = {}): NewAuditRecord {
  return {
    created_at: createdAt,
    action: 'token.update',
    user_id: userId,
    username: `user-${userId}`,
    ip: '203.0.113.7',
    source: 'api',
    request_id: `request-${userId}-${createdAt}`,
    target_id: '7',
    target_name: 'ci-key',
    before: { name: 'ci-key', status: 1, model_limits: ['gx-3', 'gx-2.5-pro'], budget_daily: null },
    after: { name: 'ci-key', status: 2, model_limits: ['gx-3', 'gx-2.5-pro'], budget_daily: null },
    ...fields,
  };
}

for (const driver of storageDrivers) {
  t.test(`the audit trail on the ${driver} driver`, async (t) => {
    const backend = await createStoreBackend(storageFor(t, driver));
    t.teardown(() => backend.close());
    const trail = backend.auditLog();

    const written = [
      await trail.append(auditRecord(1, base, { action: 'token.create', before: null, after: { name: 'ci-key', nested: { deep: [1, { x: 'y' }] } } })),
      await trail.append(auditRecord(1, base + 60)),
      await trail.append(auditRecord(2, base + day, { action: 'user.create', target_id: '5', target_name: 'bob', before: null, after: { username: 'bob', role: 'user' } })),
      await trail.append(auditRecord(1, base + 2 * day, { action: 'token.delete', after: null })),
      await trail.append(auditRecord(0, base + 2 * day, { action: 'config.reload', username: '', ip: '', source: 'signal', request_id: '', target_id: 'config/gateway.yaml', target_name: 'config/gateway.yaml' })),
    ];

    t.test('each record comes back with the id it was given and every field as written, before and after as JSON', async (t) => {
      const ids = written.map((record) => record.id);
      t.same([...ids].sort((a, b) => a - b), ids, 'ids grow with each record written');
      t.equal(new Set(ids).size, 5);
      const page = await trail.page({}, 0, 20);
      t.equal(page.total, 5);
      t.same(page.items.find((record) => record.id === written[0]!.id), written[0]);
      t.same(page.items.find((record) => record.id === written[0]!.id)?.after, { name: 'ci-key', nested: { deep: [1, { x: 'y' }] } });
      t.same(page.items.find((record) => record.id === written[3]!.id)?.after, null, 'a deletion has nothing after');
      t.same(page.items.find((record) => record.id === written[2]!.id)?.before, null, 'a creation has nothing before');
    });

    t.test('reads newest first, by time then id, and pages skip and take while the total counts every match', async (t) => {
      const all = await trail.page({}, 0, 20);
      t.same(all.items.map((record) => record.id), [written[4]!.id, written[3]!.id, written[2]!.id, written[1]!.id, written[0]!.id]);
      const second = await trail.page({}, 2, 2);
      t.same(second.items.map((record) => record.id), [written[2]!.id, written[1]!.id]);
      t.equal(second.total, 5);
      t.same(await trail.page({}, 10, 20), { items: [], total: 5 });
    });

    t.test('each filter matches exactly; the target is an id or a name; the time bounds include their ends', async (t) => {
      const ids = async (filter: AuditFilter) => (await trail.page(filter, 0, 20)).items.map((record) => record.id);
      t.same(await ids({ action: 'token.create' }), [written[0]!.id]);
      t.same(await ids({ action: 'user.delete' }), []);
      t.same(await ids({ user_id: 2 }), [written[2]!.id]);
      t.same(await ids({ user_id: 0 }), [written[4]!.id], 'the gateway itself is user 0');
      t.same(await ids({ target: 'bob' }), [written[2]!.id], 'a target by name');
      t.same(await ids({ target: '5' }), [written[2]!.id], 'a target by id');
      t.same(await ids({ target: 'ci' }), [], 'a target is not a prefix');
      t.same(await ids({ target: '7', user_id: 1 }), [written[3]!.id, written[1]!.id, written[0]!.id]);
      t.same(await ids({ start_timestamp: base + 60, end_timestamp: base + day }), [written[2]!.id, written[1]!.id]);
      t.same(await ids({ start_timestamp: base + 61 }), [written[4]!.id, written[3]!.id, written[2]!.id]);
      t.same(await ids({ end_timestamp: base }), [written[0]!.id]);
      t.same(await ids({ action: 'token.update', target: 'ci-key', start_timestamp: base, end_timestamp: base + 60 }), [written[1]!.id]);
    });

    t.test('removing before a time removes the older records only, and nothing a second time', async (t) => {
      t.equal(await trail.removeBefore(base + day, 500), 2);
      t.same((await trail.page({}, 0, 20)).items.map((record) => record.created_at), [base + 2 * day, base + 2 * day, base + day]);
      t.equal(await trail.removeBefore(base + day, 500), 0);
      const next = await trail.append(auditRecord(1, base + 3 * day));
      t.ok(next.id > written[4]!.id, 'ids are not reused after a removal');
    });
  });
}
