import type { AuditAction, AuditRecord, NewAuditRecord } from './audit-record.js';

/**
 * Which records a query reads: every field given must match exactly; `user_id` is the actor's,
 * `target` matches a record's `target_id` or its `target_name`; `start_timestamp` and
 * `end_timestamp` bound `created_at` (Unix seconds, both inclusive).
 */
export interface AuditFilter {
  action?: AuditAction;
  user_id?: number;
  target?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

/** One page of records, newest first, and how many match in all. */
export interface AuditPage {
  items: AuditRecord[];
  total: number;
}

/**
 * Where a driver keeps the audit trail: a table on SQLite and PostgreSQL, a stream on Redis, a
 * bounded list in memory. "Newest first" is by `created_at`, then `id`.
 */
export interface AuditLogStore {
  /** Writes one record, given the next id; resolves once it is stored (durably, where the driver is). */
  append(record: NewAuditRecord): Promise<AuditRecord>;
  /** The records `filter` matches, newest first, skipping `offset` and returning at most `limit`. */
  page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage>;
  /**
   * Removes at most `limit` of the oldest records created before `createdBefore` (Unix seconds)
   * and returns how many it removed. Safe to run from several processes at once.
   */
  removeBefore(createdBefore: number, limit: number): Promise<number>;
}

/** Whether `record` is one `filter` matches (the drivers that filter in the gateway: memory, Redis). */
export function matchesAuditFilter(record: AuditRecord, filter: AuditFilter): boolean {
  return (
    (filter.action === undefined || record.action === filter.action) &&
    (filter.user_id === undefined || record.user_id === filter.user_id) &&
    (filter.target === undefined || record.target_id === filter.target || record.target_name === filter.target) &&
    (filter.start_timestamp === undefined || record.created_at >= filter.start_timestamp) &&
    (filter.end_timestamp === undefined || record.created_at <= filter.end_timestamp)
  );
}
