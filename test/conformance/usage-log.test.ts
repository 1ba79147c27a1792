import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { UsageFilter } from '../../core/usage/usage-log-store.js';
import { UsageType, type NewUsageRecord, type UsageRecord } from '../../core/usage/usage-record.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

// 2023-11-14 22:13:20 UTC; a day is 86400 seconds.
const base = 1_700_000_000;
const day = 86_400;

/** A record of `user_id` at `created_at`, with `fields` replacing the rest. */
function usageRecord(userId: number, createdAt: number, fields: Partial<NewUsageRecord> = {}): NewUsageRecord {
  return {
    created_at: createdAt,
    type: UsageType.consume,
    user_id: userId,
    token_id: userId * 10,
    token_name: `token-of-${userId}`,
    model_name: 'gx-2.5-pro',
    upstream_model: 'gx-2.5-pro-001',
    operation: 'chat',
    client_format: 'openai',
    group: 'default',
    is_stream: false,
    prompt_tokens: 10,
    completion_tokens: 20,
    cached_tokens: 2,
    reasoning_tokens: 3,
    quota: 100,
    usage_source: 'upstream',
    status: 200,
    error_code: '',
    end_reason: 'completed',
    budget_overrun: '',
    use_time_ms: 120,
    first_byte_ms: 120,
    request_id: `request-${userId}-${createdAt}`,
    task_id: '',
    channel: 'gx-main',
    attempts: [{ channel: 'gx-main', group: 'default', outcome: 'success', milliseconds: 100 }],
    ...fields,
  };
}

const collect = async (records: AsyncIterable<UsageRecord>): Promise<UsageRecord[]> => {
  const all: UsageRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
};

for (const driver of storageDrivers) {
  t.test(`the usage log on the ${driver} driver`, async (t) => {
    const storage = storageFor(t, driver);
    const backend = await createStoreBackend(storage);
    t.teardown(() => backend.close());
    const log = backend.usageLog();

    // User 1: three days of chat and one failed stream; user 2: one record on the second day.
    await log.append([
      usageRecord(1, base),
      usageRecord(1, base + 60, { model_name: 'gx-3', quota: 250, prompt_tokens: 40, completion_tokens: 5, budget_overrun: 'token:daily,user:monthly' }),
      usageRecord(2, base + day, { token_name: 'other', quota: 7 }),
    ]);
    await log.append([
      usageRecord(1, base + day + 5, { type: UsageType.error, status: 502, error_code: 'upstream_error', end_reason: 'upstream_error', quota: 0, is_stream: true, usage_source: 'estimated', attempts: [{ channel: 'gx-main', group: 'default', outcome: 'failed', status: 502, code: 'upstream_error', milliseconds: 40 }] }),
      usageRecord(1, base + 2 * day, { request_id: 'the-one', cached_tokens: 0 }),
    ]);

    t.test('a user reads only its own records, newest first, with every field as written', async (t) => {
      const page = await log.page({ user_id: 1 }, 0, 20);
      t.equal(page.total, 4);
      t.same(page.items.map((record) => record.created_at), [base + 2 * day, base + day + 5, base + 60, base]);
      t.ok(page.items.every((record) => record.user_id === 1));
      const failed = page.items[1] as UsageRecord;
      t.same(failed, { id: failed.id, ...usageRecord(1, base + day + 5, { type: UsageType.error, status: 502, error_code: 'upstream_error', end_reason: 'upstream_error', quota: 0, is_stream: true, usage_source: 'estimated', attempts: [{ channel: 'gx-main', group: 'default', outcome: 'failed', status: 502, code: 'upstream_error', milliseconds: 40 }] }) });
      const ids = page.items.map((record) => record.id);
      t.same([...ids].sort((a, b) => b - a), ids, 'ids grow with each record written');
      t.equal(new Set(ids).size, 4);
    });

    t.test('keeps the mark of a request served past soft budgets, and an empty one of the others', async (t) => {
      const page = await log.page({ user_id: 1 }, 0, 20);
      t.same(page.items.map((record) => record.budget_overrun), ['', '', 'token:daily,user:monthly', '']);
    });

    t.test('pages skip and take, and the total counts every match', async (t) => {
      const second = await log.page({ user_id: 1 }, 1, 2);
      t.same(second.items.map((record) => record.created_at), [base + day + 5, base + 60]);
      t.equal(second.total, 4);
      const beyond = await log.page({ user_id: 1 }, 10, 20);
      t.same(beyond, { items: [], total: 4 });
      const everyone = await log.page({}, 0, 2);
      t.equal(everyone.total, 5, "an admin's query without a user reads everyone's");
      t.same(everyone.items.map((record) => record.created_at), [base + 2 * day, base + day + 5]);
    });

    t.test('each filter matches its field exactly, and the time bounds include their ends', async (t) => {
      const createdAt = async (filter: UsageFilter) => (await log.page(filter, 0, 20)).items.map((record) => record.created_at);
      t.same(await createdAt({ user_id: 1, start_timestamp: base + 60, end_timestamp: base + day + 5 }), [base + day + 5, base + 60]);
      t.same(await createdAt({ user_id: 1, start_timestamp: base + 61 }), [base + 2 * day, base + day + 5]);
      t.same(await createdAt({ user_id: 1, end_timestamp: base }), [base]);
      t.same(await createdAt({ user_id: 1, type: UsageType.error }), [base + day + 5]);
      t.same(await createdAt({ user_id: 1, model_name: 'gx-3' }), [base + 60]);
      t.same(await createdAt({ user_id: 1, model_name: 'gx' }), [], 'a model name is not a prefix');
      t.same(await createdAt({ token_name: 'other' }), [base + day]);
      t.same(await createdAt({ user_id: 1, token_name: 'other' }), [], "another user's token is not the user's");
      t.same(await createdAt({ request_id: 'the-one' }), [base + 2 * day]);
      t.same(await createdAt({ user_id: 1, status: 502 }), [base + day + 5]);
      t.same(await createdAt({ user_id: 1, status: 200, model_name: 'gx-2.5-pro' }), [base + 2 * day, base]);
      t.same((await log.page({ user_id: 1, status: 404 }, 0, 20)).total, 0);
    });

    t.test('stat totals quota, requests and tokens over the filter', async (t) => {
      t.same(await log.stat({ user_id: 1 }), { quota: 450, requests: 4, prompt_tokens: 70, completion_tokens: 65 });
      t.same(await log.stat({ user_id: 1, start_timestamp: base + day }), { quota: 100, requests: 2, prompt_tokens: 20, completion_tokens: 40 });
      t.same(await log.stat({}), { quota: 457, requests: 5, prompt_tokens: 80, completion_tokens: 85 });
      t.same(await log.stat({ user_id: 3 }), { quota: 0, requests: 0, prompt_tokens: 0, completion_tokens: 0 });
    });

    t.test('daily totals each UTC day and model, by day then model', async (t) => {
      t.same(await log.daily({ user_id: 1 }), [
        { day: '2023-11-14', model_name: 'gx-2.5-pro', requests: 1, quota: 100, prompt_tokens: 10, completion_tokens: 20 },
        { day: '2023-11-14', model_name: 'gx-3', requests: 1, quota: 250, prompt_tokens: 40, completion_tokens: 5 },
        { day: '2023-11-15', model_name: 'gx-2.5-pro', requests: 1, quota: 0, prompt_tokens: 10, completion_tokens: 20 },
        { day: '2023-11-16', model_name: 'gx-2.5-pro', requests: 1, quota: 100, prompt_tokens: 10, completion_tokens: 20 },
      ]);
      t.same(await log.daily({ user_id: 1, start_timestamp: base + 2 * day }), [{ day: '2023-11-16', model_name: 'gx-2.5-pro', requests: 1, quota: 100, prompt_tokens: 10, completion_tokens: 20 }]);
    });

    t.test('a scan reads every match newest first, page after page', async (t) => {
      const many = Array.from({ length: 1_100 }, (_, index) => usageRecord(9, base + 3 * day + index, { request_id: `bulk-${index}` }));
      await log.append(many.slice(0, 500));
      await log.append(many.slice(500));
      const scanned = await collect(log.scan({ user_id: 9 }));
      t.equal(scanned.length, 1_100);
      t.same(scanned.slice(0, 3).map((record) => record.request_id), ['bulk-1099', 'bulk-1098', 'bulk-1097']);
      t.equal(scanned.at(-1)?.request_id, 'bulk-0');
      t.same(scanned.map((record) => record.created_at), [...scanned.map((record) => record.created_at)].sort((a, b) => b - a));
      t.same((await collect(log.scan({ user_id: 9, start_timestamp: base + 3 * day + 1_095 }))).map((record) => record.request_id), ['bulk-1099', 'bulk-1098', 'bulk-1097', 'bulk-1096', 'bulk-1095']);
      t.equal((await log.page({ user_id: 9 }, 1_000, 20)).items[0]?.request_id, 'bulk-99', 'a deep page without filters');
    });

    t.test('removal takes the records created before the cutoff, oldest first, and keeps the rest', async (t) => {
      const removed = await log.removeBefore(base + day, 500);
      t.equal(removed, 2, 'the first day of user 1');
      t.same((await log.page({ user_id: 1 }, 0, 20)).items.map((record) => record.created_at), [base + 2 * day, base + day + 5]);
      t.equal((await log.page({ user_id: 2 }, 0, 20)).total, 1, 'a record at the cutoff stays');
      t.equal((await log.stat({})).requests, 1_103);
      t.equal(await log.removeBefore(base + day, 500), 0, 'nothing is removed twice');
    });

    if (driver !== 'memory') {
      t.test('two processes on one store write ids that never collide and read each other\'s records', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        await Promise.all(
          Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? log : other.usageLog()).append([usageRecord(5, base + 5 * day + index, { request_id: `shared-${index}` })])),
        );
        for (const reader of [log, other.usageLog()]) {
          const page = await reader.page({ user_id: 5 }, 0, 100);
          t.equal(page.total, 20);
          t.equal(new Set(page.items.map((record) => record.id)).size, 20);
        }
      });
    }
  });
}
