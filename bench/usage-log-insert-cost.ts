import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../core/store/sqlite-database.js';
import { SqliteGroupCommit } from '../core/store/sqlite-group-commit.js';
import { SqliteUsageLogStore } from '../core/store/sqlite-usage-log-store.js';
import { UsageType, type NewUsageRecord } from '../core/usage/usage-record.js';
import { timeOrderedRequestId } from '../server/time-ordered-request-id.js';

/**
 * The usage log's write on SQLite, alone: the CPU time (user and system) one record adds to
 * a turn's group commit, as the gateway writes it (core/store/sqlite-usage-log-store.ts into
 * the one database file, beside a quota write). Each commit carries one balance update, as a
 * settlement does, and `PER_COMMIT` records (15: what the gateway's commits carried under the
 * side-by-side harness's load); the table holds `PREFILL` records first. It runs the same
 * commits without records, then with random request ids (UUID v4, what a client's own ids may
 * be) and with the gateway's time-ordered ones (v7), and prints the difference per record.
 *
 *     npm run build && node dist/bench/usage-log-insert-cost.js
 *     PER_COMMIT=5 PREFILL=500000 node dist/bench/usage-log-insert-cost.js
 */
const perCommit = Number(process.env.PER_COMMIT ?? 15);
const prefill = Number(process.env.PREFILL ?? 100_000);
const measured = Number(process.env.RECORDS ?? 30_000);
const rounds = Number(process.env.ROUNDS ?? 3);

type RequestIds = 'random (v4)' | 'time-ordered (v7)';

const attempts = [{ channel: 'gx-bench', group: 'default', outcome: 'success', milliseconds: 4, translator: 'chat-to-gx' }] as const;

/** A record shaped as the gateway writes one for a translated chat completion. */
function recordOf(requestIds: RequestIds): NewUsageRecord {
  return {
    created_at: Math.floor(Date.now() / 1000),
    type: UsageType.consume,
    user_id: 1,
    token_id: 1,
    token_name: 'bench',
    model_name: 'gx-2.5-pro',
    upstream_model: 'gx-2.5-pro',
    operation: 'chat',
    client_format: 'openai',
    group: 'default',
    is_stream: false,
    prompt_tokens: 38,
    completion_tokens: 64,
    cached_tokens: 0,
    reasoning_tokens: 0,
    quota: 690,
    usage_source: 'upstream',
    status: 200,
    error_code: '',
    end_reason: 'completed',
    budget_overrun: '',
    use_time_ms: 4,
    first_byte_ms: 4,
    request_id: requestIds === 'random (v4)' ? randomUUID() : timeOrderedRequestId(),
    task_id: '',
    channel: 'gx-bench',
    attempts: [...attempts],
  };
}

/** CPU microseconds per record of group commits of a balance update and `perCommit` records (none when `requestIds` is undefined). */
async function cpuPerRecord(requestIds: RequestIds | undefined): Promise<number> {
  const directory = mkdtempSync(join(tmpdir(), 'usage-log-insert-cost-'));
  const { database } = openSqliteDatabase(join(directory, 'gateway.sqlite'));
  try {
    const groupCommit = new SqliteGroupCommit(database);
    const store = new SqliteUsageLogStore(database, groupCommit);
    const settle = database.prepare('INSERT INTO balances (account, remain, used) VALUES (?, 1000000000, 0) ON CONFLICT (account) DO UPDATE SET remain = remain - 1, used = used + 1');
    for (let written = 0; written < prefill; written += 500) await store.append(Array.from({ length: 500 }, () => recordOf(requestIds ?? 'random (v4)')));
    database.pragma('wal_checkpoint(TRUNCATE)');
    const started = process.cpuUsage();
    for (let written = 0; written < measured; written += perCommit) {
      const settled = groupCommit.run(() => settle.run('token:1'));
      // The records are built in both runs, so the difference is the write alone.
      const records = Array.from({ length: perCommit }, () => recordOf(requestIds ?? 'random (v4)'));
      await Promise.all([settled, requestIds === undefined ? undefined : store.append(records)]);
    }
    const used = process.cpuUsage(started);
    return (used.user + used.system) / measured;
  } finally {
    database.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

const results = new Map<string, number[]>();
for (let round = 0; round < rounds; round += 1) {
  for (const requestIds of [undefined, 'random (v4)', 'time-ordered (v7)'] as const) {
    const label = requestIds ?? 'none';
    results.set(label, [...(results.get(label) ?? []), await cpuPerRecord(requestIds)]);
  }
}
// The least of the rounds: other work on the machine only ever adds time.
const least = (label: string) => Math.min(...(results.get(label) ?? [Number.NaN]));
console.log(`usage log on SQLite: ${perCommit} records per commit, ${prefill} records in the table first, ${measured} measured, least of ${rounds} rounds`);
console.log('| request ids | CPU us per record (its share of the commit and balance update, and its write) | of which the write |');
console.log('| --- | --: | --: |');
for (const label of ['random (v4)', 'time-ordered (v7)']) {
  console.log(`| ${label} | ${least(label).toFixed(1)} | ${(least(label) - least('none')).toFixed(1)} |`);
}
console.log(`| (no records: the commit and the balance update alone) | ${least('none').toFixed(1)} | |`);
