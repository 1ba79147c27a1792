import type { UsageDay, UsageFilter, UsagePage, UsageStat } from './usage-log-store.js';
import type { UsageRecord } from './usage-record.js';

/**
 * The log queries answered by reading records in the gateway, for the drivers that keep the
 * log in a capped structure and have no query language over it (memory, Redis): each reads
 * the records newest first and keeps what the filter matches. The SQL drivers answer the same
 * questions with statements of their own.
 */

/** Whether `record` is one `filter` matches. */
export function matchesUsageFilter(record: UsageRecord, filter: UsageFilter): boolean {
  return (
    (filter.user_id === undefined || record.user_id === filter.user_id) &&
    (filter.start_timestamp === undefined || record.created_at >= filter.start_timestamp) &&
    (filter.end_timestamp === undefined || record.created_at <= filter.end_timestamp) &&
    (filter.type === undefined || record.type === filter.type) &&
    (filter.model_name === undefined || record.model_name === filter.model_name) &&
    (filter.token_name === undefined || record.token_name === filter.token_name) &&
    (filter.request_id === undefined || record.request_id === filter.request_id) &&
    (filter.status === undefined || record.status === filter.status)
  );
}

/** Whether `filter` asks for anything besides the user (whose records a driver may keep apart). */
export function filtersBeyondUser(filter: UsageFilter): boolean {
  return Object.entries(filter).some(([name, value]) => name !== 'user_id' && value !== undefined);
}

/** The records of `newestFirst` that `filter` matches, still newest first. */
export async function* matching(newestFirst: AsyncIterable<UsageRecord> | Iterable<UsageRecord>, filter: UsageFilter): AsyncGenerator<UsageRecord> {
  for await (const record of newestFirst) if (matchesUsageFilter(record, filter)) yield record;
}

/** One page of the records `filter` matches, with their total. */
export function pageOfMatching(newestFirst: AsyncIterable<UsageRecord> | Iterable<UsageRecord>, filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
  return pageWhere(newestFirst, (record) => matchesUsageFilter(record, filter), offset, limit);
}

/** One page of the records of any log (the usage log, the audit trail) that `matches`, still newest first, with their total. */
export async function pageWhere<Logged>(newestFirst: AsyncIterable<Logged> | Iterable<Logged>, matches: (record: Logged) => boolean, offset: number, limit: number): Promise<{ items: Logged[]; total: number }> {
  const items: Logged[] = [];
  let total = 0;
  for await (const record of newestFirst) {
    if (!matches(record)) continue;
    if (total >= offset && items.length < limit) items.push(record);
    total += 1;
  }
  return { items, total };
}

/** The totals of the records `filter` matches. */
export async function statOfMatching(newestFirst: AsyncIterable<UsageRecord> | Iterable<UsageRecord>, filter: UsageFilter): Promise<UsageStat> {
  const stat: UsageStat = { quota: 0, requests: 0, prompt_tokens: 0, completion_tokens: 0 };
  for await (const record of matching(newestFirst, filter)) {
    stat.quota += record.quota;
    stat.requests += 1;
    stat.prompt_tokens += record.prompt_tokens;
    stat.completion_tokens += record.completion_tokens;
  }
  return stat;
}

/** The totals per UTC day and model of the records `filter` matches, by day then model. */
export async function dailyOfMatching(newestFirst: AsyncIterable<UsageRecord> | Iterable<UsageRecord>, filter: UsageFilter): Promise<UsageDay[]> {
  const days = new Map<string, UsageDay>();
  for await (const record of matching(newestFirst, filter)) {
    const day = utcDay(record.created_at);
    const key = `${day} ${record.model_name}`;
    let totals = days.get(key);
    if (totals === undefined) days.set(key, (totals = { day, model_name: record.model_name, requests: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0 }));
    totals.requests += 1;
    totals.quota += record.quota;
    totals.prompt_tokens += record.prompt_tokens;
    totals.completion_tokens += record.completion_tokens;
  }
  return [...days.values()].sort((a, b) => compareText(a.day, b.day) || compareText(a.model_name, b.model_name));
}

/** `YYYY-MM-DD` of Unix seconds, in UTC. */
export const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Code-unit order, as the SQL drivers sort text (`COLLATE "C"`, SQLite's BINARY). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
