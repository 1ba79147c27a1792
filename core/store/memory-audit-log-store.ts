import { matchesAuditFilter, type AuditFilter, type AuditLogStore, type AuditPage } from '../audit/audit-log-store.js';
import type { AuditRecord, NewAuditRecord } from '../audit/audit-record.js';
import { pageWhere } from '../usage/usage-queries-in-process.js';
import { MemoryRecordList } from './memory-record-list.js';

/** The most records the memory driver's audit trail keeps; older ones are dropped as new ones arrive. */
export const memoryAuditLogCapacity = 10_000;

/** The audit trail of the memory driver: a bounded list in this process ({@link MemoryRecordList}), gone when it ends. */
export class MemoryAuditLogStore implements AuditLogStore {
  readonly #records = new MemoryRecordList<AuditRecord>(memoryAuditLogCapacity);

  async append(record: NewAuditRecord): Promise<AuditRecord> {
    return this.#records.append([structuredClone(record)])[0] as AuditRecord;
  }

  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage> {
    return pageWhere(this.#records.newestFirst(), (record) => matchesAuditFilter(record, filter), offset, limit);
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    return this.#records.removeBefore(createdBefore, limit);
  }

  /** Every record, oldest first (a copy of the list). */
  exportRecords(): AuditRecord[] {
    return this.#records.exportRecords();
  }

  /** Adds a record with its own id (an import); new records' ids follow the largest. */
  importRecord(record: AuditRecord): void {
    this.#records.importRecord(structuredClone(record));
  }
}
