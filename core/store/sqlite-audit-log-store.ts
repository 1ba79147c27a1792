import type Database from 'better-sqlite3';
import type { AuditFilter, AuditLogStore, AuditPage } from '../audit/audit-log-store.js';
import type { AuditRecord, NewAuditRecord } from '../audit/audit-record.js';
import { auditColumns, auditConditions, auditRecordOfRow, selectedAuditColumns } from './audit-log-sql.js';
import type { SqliteGroupCommit } from './sqlite-group-commit.js';
import { SqliteLogTable } from './sqlite-log-table.js';
import { whereClause } from './usage-log-sql.js';

/**
 * The audit trail of the sqlite driver: the `audit_logs` table of the one database file
 * (core/store/sqlite-database.ts), written inside the group commit's IMMEDIATE transaction as
 * every other write is, so the workers of one gateway take turns. `before` and `after` are JSON
 * text. Ids come from the table (AUTOINCREMENT: never reused, also after retention).
 */
export class SqliteAuditLogStore implements AuditLogStore {
  readonly #groupCommit: SqliteGroupCommit;
  readonly #table: SqliteLogTable<AuditRecord>;

  constructor(database: Database.Database, groupCommit: SqliteGroupCommit) {
    this.#groupCommit = groupCommit;
    this.#table = new SqliteLogTable(database, { table: 'audit_logs', columns: auditColumns.map((column) => `"${column}"`), selected: selectedAuditColumns, recordOfRow: auditRecordOfRow });
  }

  async append(record: NewAuditRecord): Promise<AuditRecord> {
    const id = await this.#groupCommit.run(() => Number(this.#table.insert.run(...rowOf(record)).lastInsertRowid));
    return { ...record, id };
  }

  /** Every record, oldest first, a page at a time; run inside the export's read transaction, it reads that one snapshot. */
  exportRecords(pageSize: number): Generator<AuditRecord> {
    return this.#table.exportRecords(pageSize);
  }

  /** Writes a record with its own id (an import, inside its transaction). */
  importRecord(record: AuditRecord): void {
    this.#table.importRecord.run(record.id, ...rowOf(record));
  }

  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage> {
    const { conditions, values } = whereClause((parameter) => auditConditions(filter, parameter), () => '?');
    const rows = this.#table.query(`SELECT ${selectedAuditColumns} FROM audit_logs WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...values, limit, offset) as Array<Record<string, unknown>>;
    const counted = this.#table.query(`SELECT count(*) AS total FROM audit_logs WHERE ${conditions}`).get(...values) as { total: number };
    return { items: rows.map(auditRecordOfRow), total: Number(counted.total) };
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    return this.#groupCommit.run(() => this.#table.removeBefore.run(createdBefore, limit).changes);
  }
}

/** A record's values in the order of {@link auditColumns}, as SQLite stores them: before and after as JSON text. */
function rowOf(record: NewAuditRecord): unknown[] {
  return auditColumns.map((column) => (column === 'before' || column === 'after' ? JSON.stringify(record[column]) : record[column]));
}
