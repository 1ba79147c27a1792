import type { RedisClientType } from '@redis/client';
import { usageScanPageSize, type UsageDay, type UsageFilter, type UsageLogStore, type UsagePage, type UsageStat } from '../usage/usage-log-store.js';
import { dailyOfMatching, filtersBeyondUser, matching, pageOfMatching, statOfMatching } from '../usage/usage-queries-in-process.js';
import type { NewUsageRecord, UsageRecord } from '../usage/usage-record.js';

/** The most records the stream of all records keeps (approximately: Redis trims whole nodes of a stream, so it may keep a few hundred more). */
export const redisUsageLogCapacity = 100_000;
/** The most records each user's stream keeps, approximately as above. */
export const redisUserUsageLogCapacity = 10_000;
/** How many users' streams one trimming script takes. */
const trimChunkSize = 200;

/**
 * Lua: `add(key, cap, record)` adds one record's JSON (with its id, `created_at` its first
 * number field) to a stream capped near `cap`. The entry's id is at least the record's
 * `created_at` in milliseconds: the record's time when that is past the stream's last entry,
 * else Redis's next id. So an entry whose id is below a time holds a record created before it,
 * which is what the time filters and the retention read (and no clock but the records' own is
 * involved). The audit trail's stream is written the same way.
 */
export const addStreamEntry = `
local function add(key, cap, record)
  local entryTime = string.format('%d', tonumber(string.match(record, '"created_at":(%d+)')) * 1000)
  local added = redis.pcall('XADD', key, 'MAXLEN', '~', cap, entryTime .. '-*', 'r', record)
  if type(added) == 'table' and added.err then redis.call('XADD', key, 'MAXLEN', '~', cap, '*', 'r', record) end
end`;

// KEYS: the id counter, the stream of all records, the set of users with a stream, then each
// record's user stream; ARGV: the two caps, then per record its user id and its JSON without
// \`id\` (which starts with \`created_at\`).
const appendScript = `${addStreamEntry}
local count = (#ARGV - 2) / 2
local last = redis.call('INCRBY', KEYS[1], count)
for i = 1, count do
  local record = '{"id":' .. string.format('%d', last - count + i) .. ',' .. string.sub(ARGV[2 + 2 * i], 2)
  add(KEYS[2], ARGV[1], record)
  add(KEYS[3 + i], ARGV[2], record)
  redis.call('SADD', KEYS[3], ARGV[1 + 2 * i])
end
return count`;

// An import: as the append, but each record comes with its id (ARGV per record: user id, id,
// JSON), and the counter moves past the largest, so new records' ids follow.
const importScript = `${addStreamEntry}
local count = (#ARGV - 2) / 3
local largest = tonumber(redis.call('GET', KEYS[1]) or '0')
for i = 1, count do
  add(KEYS[2], ARGV[1], ARGV[2 + 3 * i])
  add(KEYS[3 + i], ARGV[2], ARGV[2 + 3 * i])
  redis.call('SADD', KEYS[3], ARGV[3 * i])
  largest = math.max(largest, tonumber(ARGV[1 + 3 * i]))
end
redis.call('SET', KEYS[1], string.format('%d', largest))
return count`;

// KEYS: the set of users, then user streams (the stream of all records first, as user ''); ARGV:
// the lowest entry id to keep, then each stream's user id. A user stream left empty is removed
// with its place in the set, in this one script, so no append comes between.
const trimScript = `
local removed = 0
for i = 2, #KEYS do
  removed = removed + redis.call('XTRIM', KEYS[i], 'MINID', ARGV[1])
  if ARGV[i] ~= '' and redis.call('XLEN', KEYS[i]) == 0 then
    redis.call('DEL', KEYS[i])
    redis.call('SREM', KEYS[1], ARGV[i])
  end
end
return removed`;

/**
 * The usage log of the redis driver, capped: a stream of all records (`usage:log`, at most
 * {@link redisUsageLogCapacity}) for the admin's queries and a stream per user
 * (`usage:user:<id>`, at most {@link redisUserUsageLogCapacity}) for a user's own, every
 * record in both; the set `usage:users` names the users with a stream, for the retention.
 * Every instance sharing the Redis writes and reads the same streams. A batch is one script,
 * atomic: its ids from one counter, its entries in both streams.
 *
 * Queries read a stream newest first, a page of entries at a time, and filter in the
 * gateway; a lower time bound stops the read early (an entry's id is never below its
 * record's time). A page without filters is read as far as it reaches, its total is the
 * stream's length. Retention trims every stream by entry id, the oldest first.
 */
export class RedisUsageLogStore implements UsageLogStore {
  readonly #client: RedisClientType;
  readonly #key: (key: string) => string;

  /** `key` puts the deployment's prefix before a key. */
  constructor(client: RedisClientType, key: (key: string) => string) {
    this.#client = client;
    this.#key = key;
  }

  async append(records: readonly NewUsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const keys = [this.#key('usage:id'), this.#key('usage:log'), this.#key('usage:users')];
    const values = [String(redisUsageLogCapacity), String(redisUserUsageLogCapacity)];
    for (const record of records) {
      keys.push(this.#userStream(record.user_id));
      // `created_at` first: the script reads it from the start of the text.
      values.push(String(record.user_id), JSON.stringify(record));
    }
    await this.#client.eval(appendScript, { keys, arguments: values });
  }

  /** Writes records with their own ids (an import), in the order given. */
  async importRecords(records: readonly UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const keys = [this.#key('usage:id'), this.#key('usage:log'), this.#key('usage:users')];
    const values = [String(redisUsageLogCapacity), String(redisUserUsageLogCapacity)];
    for (const { id, ...record } of records) {
      keys.push(this.#userStream(record.user_id));
      values.push(String(record.user_id), String(id), JSON.stringify({ id, ...record }));
    }
    await this.#client.eval(importScript, { keys, arguments: values });
  }

  /**
   * Every record once, oldest first: those only a user's stream still holds (older than the
   * oldest of the stream of all records, which dropped them at its cap), user by user, then
   * the stream of all records.
   */
  async *exportRecords(): AsyncGenerator<UsageRecord> {
    const [oldest] = await this.#client.xRange(this.#key('usage:log'), '-', '+', { COUNT: 1 });
    const oldestShared = oldest === undefined ? Infinity : recordOfEntry(oldest).id;
    const users = new Set<string>();
    for await (const members of this.#client.sScanIterator(this.#key('usage:users'), { COUNT: trimChunkSize })) for (const user of members) users.add(user);
    for (const user of users) {
      for await (const record of this.#oldestFirst(this.#userStream(Number(user)))) {
        if (record.id >= oldestShared) break;
        yield record;
      }
    }
    yield* this.#oldestFirst(this.#key('usage:log'));
  }

  async page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
    const stream = this.#streamOf(filter);
    if (filtersBeyondUser(filter)) return pageOfMatching(this.#newestFirst(stream, filter), filter, offset, limit);
    const [total, entries] = await Promise.all([this.#client.xLen(stream), offset + limit === 0 ? [] : this.#client.xRevRange(stream, '+', '-', { COUNT: offset + limit })]);
    return { items: entries.slice(offset).map(recordOfEntry), total: Number(total) };
  }

  async stat(filter: UsageFilter): Promise<UsageStat> {
    return statOfMatching(this.#newestFirst(this.#streamOf(filter), filter), filter);
  }

  async daily(filter: UsageFilter): Promise<UsageDay[]> {
    return dailyOfMatching(this.#newestFirst(this.#streamOf(filter), filter), filter);
  }

  scan(filter: UsageFilter): AsyncIterable<UsageRecord> {
    return matching(this.#newestFirst(this.#streamOf(filter), filter), filter);
  }

  /**
   * Trims every stream of the entries whose id is below `createdBefore` (so of records created
   * before it), each stream in one command: a stream never holds more than its cap, so no trim
   * is long, and `limit` bounds nothing here. The answer is how many records left the stream
   * of all records (each is in a user's stream too).
   */
  async removeBefore(createdBefore: number, _limit: number): Promise<number> {
    const lowestKept = `${createdBefore * 1000}-0`;
    const removed = Number(await this.#client.eval(trimScript, { keys: [this.#key('usage:users'), this.#key('usage:log')], arguments: [lowestKept, ''] }));
    for await (const users of this.#client.sScanIterator(this.#key('usage:users'), { COUNT: trimChunkSize })) {
      if (users.length === 0) continue;
      const keys = [this.#key('usage:users'), ...users.map((user) => this.#userStream(Number(user)))];
      await this.#client.eval(trimScript, { keys, arguments: [lowestKept, ...users] });
    }
    return removed;
  }

  /** The user's stream when the filter names a user, else the stream of all records. */
  #streamOf(filter: UsageFilter): string {
    return filter.user_id === undefined ? this.#key('usage:log') : this.#userStream(filter.user_id);
  }

  #userStream(userId: number): string {
    return this.#key(`usage:user:${userId}`);
  }

  /** The stream's records oldest first, a page at a time. */
  async *#oldestFirst(stream: string): AsyncGenerator<UsageRecord> {
    for (let lowest = '-'; ; ) {
      const entries = await this.#client.xRange(stream, lowest, '+', { COUNT: usageScanPageSize });
      for (const entry of entries) yield recordOfEntry(entry);
      const last = entries.at(-1);
      if (last === undefined || entries.length < usageScanPageSize) return;
      lowest = `(${last.id}`;
    }
  }

  /** The stream's records newest first, a page at a time, down to the filter's lower time bound. */
  async *#newestFirst(stream: string, filter: UsageFilter): AsyncGenerator<UsageRecord> {
    for await (const entry of streamNewestFirst(this.#client, stream, filter.start_timestamp)) yield recordOfEntry(entry);
  }
}

/**
 * The entries of a stream written with {@link addStreamEntry}, newest first, a page at a time,
 * down to those of records created at `startTimestamp` (Unix seconds; all without it).
 */
export async function* streamNewestFirst(client: RedisClientType, stream: string, startTimestamp?: number): AsyncGenerator<{ id: string; message: Record<string, string> }> {
  const lowest = startTimestamp === undefined ? '-' : `${startTimestamp * 1000}-0`;
  for (let highest = '+'; ; ) {
    const entries = await client.xRevRange(stream, highest, lowest, { COUNT: usageScanPageSize });
    yield* entries;
    const last = entries.at(-1);
    if (last === undefined || entries.length < usageScanPageSize) return;
    highest = `(${last.id}`;
  }
}

function recordOfEntry(entry: { id: string; message: Record<string, string> }): UsageRecord {
  const record = JSON.parse(entry.message.r ?? '{}') as UsageRecord;
  // Records written before budgets have no budget_overrun.
  record.budget_overrun ??= '';
  return record;
}
