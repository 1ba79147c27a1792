import type { FastifyBaseLogger } from 'fastify';
import t, { type Test } from 'tap';
import type { GatewayConfig } from '../../../core/config/config-schema.js';
import { MemoryUsageLogStore } from '../../../core/store/memory-usage-log-store.js';
import type { StoreBackend } from '../../../core/store/store-backend.js';
import { UsageLog } from '../../../core/usage/usage-log.js';
import { UsageType, type NewUsageRecord } from '../../../core/usage/usage-record.js';

/** A memory log that counts its writes and refuses them while `refusing` is set. */
class CountingStore extends MemoryUsageLogStore {
  readonly writes: number[] = [];
  refusing = false;

  override async append(records: readonly NewUsageRecord[]): Promise<void> {
    if (this.refusing) throw new Error('the store is away');
    this.writes.push(records.length);
    await super.append(records);
  }
}

const silentLogger = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

function openLog(t: Test): { log: UsageLog; store: CountingStore } {
  const store = new CountingStore();
  const backend = { usageLog: () => store } as unknown as StoreBackend;
  const log = new UsageLog(backend, { logs: { enabled: true, retention_days: 30 } } as GatewayConfig, silentLogger, { now: () => Date.now() });
  t.teardown(() => log.close());
  return { log, store };
}

const record = (index: number): NewUsageRecord => ({
  created_at: 1_764_000_000,
  type: UsageType.consume,
  user_id: 1,
  token_id: 1,
  token_name: 'writer',
  model_name: 'gx-2.5-pro',
  upstream_model: 'gx-2.5-pro',
  operation: 'chat',
  client_format: 'openai',
  group: 'default',
  is_stream: false,
  prompt_tokens: 1,
  completion_tokens: 1,
  cached_tokens: 0,
  reasoning_tokens: 0,
  quota: 1,
  usage_source: 'upstream',
  status: 200,
  error_code: '',
  end_reason: 'completed',
  budget_overrun: '',
  use_time_ms: 1,
  first_byte_ms: 1,
  request_id: `request-${index}`,
  task_id: '',
  channel: 'gx-main',
  attempts: [],
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Every request id on the log, oldest first. */
async function recordedIds(store: MemoryUsageLogStore): Promise<string[]> {
  return (await store.page({}, 0, 1000)).items.map((item) => item.request_id).reverse();
}

t.test('records handed over in several turns are written together, not one write a turn', async (t) => {
  const { log, store } = openLog(t);
  for (let index = 0; index < 40; index += 1) {
    log.record(record(index));
    if (index % 4 === 3) await nextTurn();
  }
  t.same(store.writes, [], 'nothing is written while the batch window is open');
  await sleep(250);
  t.ok(store.writes.length > 0 && store.writes.length < 10, `10 turns of records took ${store.writes.length} writes`);
  t.same(await recordedIds(store), Array.from({ length: 40 }, (_, index) => `request-${index}`), 'every record, in order');
});

t.test('500 pending records are written at once, without waiting for the window', async (t) => {
  const { log, store } = openLog(t);
  for (let index = 0; index < 500; index += 1) log.record(record(index));
  await nextTurn();
  await nextTurn();
  t.same(store.writes, [500]);
});

t.test('flush writes what is pending now', async (t) => {
  const { log, store } = openLog(t);
  log.record(record(1));
  log.record(record(2));
  await log.flush();
  t.same(store.writes, [2]);
  t.same(await recordedIds(store), ['request-1', 'request-2']);
});

t.test('a batch the store refuses is written again once it is back, in order, losing nothing', async (t) => {
  const { log, store } = openLog(t);
  store.refusing = true;
  log.record(record(1));
  await log.flush();
  t.same(store.writes, [], 'refused');
  log.record(record(2));
  store.refusing = false;
  await sleep(400);
  await log.flush();
  t.same(await recordedIds(store), ['request-1', 'request-2']);
});

t.test('closing writes what is still pending', async (t) => {
  const { log, store } = openLog(t);
  log.record(record(7));
  await log.close();
  t.same(await recordedIds(store), ['request-7']);
});
