import type { UsageDay, UsageFilter, UsageLogStore, UsagePage, UsageStat } from '../usage/usage-log-store.js';
import { dailyOfMatching, matching, pageOfMatching, statOfMatching } from '../usage/usage-queries-in-process.js';
import type { NewUsageRecord, UsageRecord } from '../usage/usage-record.js';

/** The most records the memory driver keeps; older ones are dropped as new ones arrive. */
export const memoryUsageLogCapacity = 10_000;

/**
 * The usage log of the memory driver: a bounded list in this process, oldest first, of at
 * most {@link memoryUsageLogCapacity} records; each batch written drops the oldest past it.
 */
export class MemoryUsageLogStore implements UsageLogStore {
  readonly #records: UsageRecord[] = [];
  readonly #capacity: number;
  #lastId = 0;

  constructor(capacity = memoryUsageLogCapacity) {
    this.#capacity = capacity;
  }

  async append(records: readonly NewUsageRecord[]): Promise<void> {
    for (const record of records) {
      this.#lastId += 1;
      this.#records.push({ id: this.#lastId, ...record });
    }
    if (this.#records.length > this.#capacity) this.#records.splice(0, this.#records.length - this.#capacity);
  }

  async page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
    return pageOfMatching(this.#newestFirst(), filter, offset, limit);
  }

  async stat(filter: UsageFilter): Promise<UsageStat> {
    return statOfMatching(this.#newestFirst(), filter);
  }

  async daily(filter: UsageFilter): Promise<UsageDay[]> {
    return dailyOfMatching(this.#newestFirst(), filter);
  }

  scan(filter: UsageFilter): AsyncIterable<UsageRecord> {
    return matching(this.#newestFirst(), filter);
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    // Oldest first: the expired ones are at the front, up to the first record still kept.
    let count = 0;
    while (count < limit && count < this.#records.length && (this.#records[count] as UsageRecord).created_at < createdBefore) count += 1;
    this.#records.splice(0, count);
    return count;
  }

  /** Every record, oldest first (a copy of the list). */
  exportRecords(): UsageRecord[] {
    return this.#records.slice();
  }

  /** Adds a record with its own id, in id order; new records' ids follow the largest. */
  importRecord(record: UsageRecord): void {
    const last = this.#records.at(-1);
    this.#records.push(record);
    if (last !== undefined && last.id > record.id) this.#records.sort((a, b) => a.id - b.id);
    this.#lastId = Math.max(this.#lastId, record.id);
  }

  /** The records, newest first, from a copy of the list (an append or removal meanwhile changes nothing a reader sees). */
  *#newestFirst(): Generator<UsageRecord> {
    const snapshot = this.#records.slice();
    for (let index = snapshot.length - 1; index >= 0; index -= 1) yield snapshot[index] as UsageRecord;
  }
}
