import type { UsageDay, UsageFilter, UsageLogStore, UsagePage, UsageStat } from '../usage/usage-log-store.js';
import { dailyOfMatching, matching, pageOfMatching, statOfMatching } from '../usage/usage-queries-in-process.js';
import type { NewUsageRecord, UsageRecord } from '../usage/usage-record.js';
import { MemoryRecordList } from './memory-record-list.js';

/** The most records the memory driver keeps; older ones are dropped as new ones arrive. */
export const memoryUsageLogCapacity = 10_000;

/**
 * The usage log of the memory driver: a bounded list in this process ({@link MemoryRecordList})
 * of at most {@link memoryUsageLogCapacity} records.
 */
export class MemoryUsageLogStore implements UsageLogStore {
  readonly #records: MemoryRecordList<UsageRecord>;

  constructor(capacity = memoryUsageLogCapacity) {
    this.#records = new MemoryRecordList(capacity);
  }

  async append(records: readonly NewUsageRecord[]): Promise<void> {
    this.#records.append(records);
  }

  async page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
    return pageOfMatching(this.#records.newestFirst(), filter, offset, limit);
  }

  async stat(filter: UsageFilter): Promise<UsageStat> {
    return statOfMatching(this.#records.newestFirst(), filter);
  }

  async daily(filter: UsageFilter): Promise<UsageDay[]> {
    return dailyOfMatching(this.#records.newestFirst(), filter);
  }

  scan(filter: UsageFilter): AsyncIterable<UsageRecord> {
    return matching(this.#records.newestFirst(), filter);
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    return this.#records.removeBefore(createdBefore, limit);
  }

  /** Every record, oldest first (a copy of the list). */
  exportRecords(): UsageRecord[] {
    return this.#records.exportRecords();
  }

  /** Adds a record with its own id, in id order; new records' ids follow the largest. */
  importRecord(record: UsageRecord): void {
    this.#records.importRecord(record);
  }
}
