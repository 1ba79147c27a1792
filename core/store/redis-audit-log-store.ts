import type { RedisClientType } from '@redis/client';
import { matchesAuditFilter, type AuditFilter, type AuditLogStore, type AuditPage } from '../audit/audit-log-store.js';
import type { AuditRecord, NewAuditRecord } from '../audit/audit-record.js';
import { usageScanPageSize } from '../usage/usage-log-store.js';
import { pageWhere } from '../usage/usage-queries-in-process.js';
import { addStreamEntry, streamNewestFirst } from './redis-usage-log-store.js';

/**
 * How many records the stream keeps at most (approximately, as Redis trims whole nodes): a
 * bound against a runaway writer, far past what admins change within a retention period, so
 * in practice the retention alone removes records.
 */
export const redisAuditLogCapacity = 1_000_000;

// KEYS: the id counter, the stream; ARGV: the cap, the record's JSON without `id` (which starts
// with `created_at`). Returns the record's id.
const appendScript = `${addStreamEntry}
local id = redis.call('INCR', KEYS[1])
add(KEYS[2], ARGV[1], '{"id":' .. string.format('%d', id) .. ',' .. string.sub(ARGV[2], 2))
return id`;

// An import: KEYS as the append's; ARGV: the cap, then per record its id and its JSON (with
// the id). The counter moves past the largest id, so new records' ids follow.
const importScript = `${addStreamEntry}
local largest = tonumber(redis.call('GET', KEYS[1]) or '0')
for i = 2, #ARGV, 2 do
  add(KEYS[2], ARGV[1], ARGV[i + 1])
  largest = math.max(largest, tonumber(ARGV[i]))
end
redis.call('SET', KEYS[1], string.format('%d', largest))
return (#ARGV - 1) / 2`;

/**
 * The audit trail of the redis driver: one stream, `audit:log`, shared by every instance on the
 * Redis, each entry one record's JSON, written by one script (its id from `audit:id`), so it is
 * in Redis (and, with the operator's persistence settings, on its disk) when the change is
 * answered. Queries read the stream newest first and filter in the gateway, a lower time bound
 * stopping the read early; retention trims the stream by entry id, the oldest first.
 */
export class RedisAuditLogStore implements AuditLogStore {
  readonly #client: RedisClientType;
  readonly #key: (key: string) => string;

  /** `key` puts the deployment's prefix before a key. */
  constructor(client: RedisClientType, key: (key: string) => string) {
    this.#client = client;
    this.#key = key;
  }

  async append(record: NewAuditRecord): Promise<AuditRecord> {
    // `created_at` first: the script reads it from the start of the text.
    const { created_at, ...rest } = record;
    const id = await this.#client.eval(appendScript, { keys: [this.#key('audit:id'), this.#key('audit:log')], arguments: [String(redisAuditLogCapacity), JSON.stringify({ created_at, ...rest })] });
    return { ...record, id: Number(id) };
  }

  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage> {
    return pageWhere(this.#newestFirst(filter), (record) => matchesAuditFilter(record, filter), offset, limit);
  }

  /**
   * Trims the stream of the entries of records created before `createdBefore`, in one exact
   * command (Redis takes a `LIMIT` only for approximate trims, which would keep expired records
   * of a partly expired node): admin changes are few, so no trim is long, and `limit` bounds nothing here.
   */
  async removeBefore(createdBefore: number, _limit: number): Promise<number> {
    return Number(await this.#client.xTrim(this.#key('audit:log'), 'MINID', `${createdBefore * 1000}-0`));
  }

  /** Every record, oldest first, a page at a time. */
  async *exportRecords(): AsyncGenerator<AuditRecord> {
    for (let lowest = '-'; ; ) {
      const entries = await this.#client.xRange(this.#key('audit:log'), lowest, '+', { COUNT: usageScanPageSize });
      for (const entry of entries) yield recordOfEntry(entry);
      const last = entries.at(-1);
      if (last === undefined || entries.length < usageScanPageSize) return;
      lowest = `(${last.id}`;
    }
  }

  /** Writes records with their own ids (an import), in the order given (oldest first, as an export gives them). */
  async importRecords(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    const values = [String(redisAuditLogCapacity)];
    // `created_at` right after `id`: the script reads the first number after `"created_at":`.
    for (const { id, created_at, ...rest } of records) values.push(String(id), JSON.stringify({ id, created_at, ...rest }));
    await this.#client.eval(importScript, { keys: [this.#key('audit:id'), this.#key('audit:log')], arguments: values });
  }

  async *#newestFirst(filter: AuditFilter): AsyncGenerator<AuditRecord> {
    for await (const entry of streamNewestFirst(this.#client, this.#key('audit:log'), filter.start_timestamp)) yield recordOfEntry(entry);
  }
}

const recordOfEntry = (entry: { message: Record<string, string> }): AuditRecord => JSON.parse(entry.message.r ?? '{}') as AuditRecord;
