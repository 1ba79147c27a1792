import type Database from 'better-sqlite3';
import type { AuditFilter, AuditLogStore, AuditPage } from '../audit/audit-log-store.js';
import type { AuditRecord, NewAuditRecord } from '../audit/audit-record.js';
import { auditColumns, auditConditions, auditRecordOfRow, selectedAuditColumns } from './audit-log-sql.js';
import type { SqliteGroupCommit } from './sqlite-group-commit.js';
import { whereClause } from './usage-log-sql.js';

/**
 * The audit trail of the sqlite driver: the `audit_logs` table of the one database file
 * (core/store/sqlite-database.ts), written inside the group commit's IMMEDIATE transaction as
 * every other write is, so the workers of one gateway take turns. `before` and `after` are JSON
 * text. Ids come from the table (AUTOINCREMENT: never reused, also after retention).
 */
export class SqliteAuditLogStore implements AuditLogStore {
  readonly #database: Database.Database;
  readonly #groupCommit: SqliteGroupCommit;
  readonly #insert: Database.Statement;
  readonly #removeBefore: Database.Statement<[number, number]>;
  readonly #exportPage: Database.Statement<[number, number]>;
  readonly #importRecord: Database.Statement;
  readonly #queries = new Map<string, Database.Statement>();

  constructor(database: Database.Database, groupCommit: SqliteGroupCommit) {
    this.#database = database;
    this.#groupCommit = groupCommit;
    this.#insert = database.prepare(`INSERT INTO audit_logs (${auditColumns.map((column) => `"${column}"`).join(', ')}) VALUES (${auditColumns.map(() => '?').join(', ')})`);
    this.#removeBefore = database.prepare('DELETE FROM audit_logs WHERE id IN (SELECT id FROM audit_logs WHERE created_at < ? ORDER BY created_at LIMIT ?)');
    this.#exportPage = database.prepare(`SELECT ${selectedAuditColumns} FROM audit_logs WHERE id > ? ORDER BY id LIMIT ?`);
    // An imported id past the table's sequence moves the sequence on (AUTOINCREMENT), so new ids follow it.
    this.#importRecord = database.prepare(`INSERT OR REPLACE INTO audit_logs (${selectedAuditColumns}) VALUES (${['id', ...auditColumns].map(() => '?').join(', ')})`);
  }

  async append(record: NewAuditRecord): Promise<AuditRecord> {
    const id = await this.#groupCommit.run(() => Number(this.#insert.run(...rowOf(record)).lastInsertRowid));
    return { ...record, id };
  }

  /** Every record, oldest first, a page at a time; run inside the export's read transaction, it reads that one snapshot. */
  *exportRecords(pageSize: number): Generator<AuditRecord> {
    for (let after = 0; ; ) {
      const rows = this.#exportPage.all(after, pageSize) as Array<Record<string, unknown>>;
      for (const row of rows) yield auditRecordOfRow(row);
      if (rows.length < pageSize) return;
      after = Number((rows.at(-1) as Record<string, unknown>).id);
    }
  }

  /** Writes a record with its own id (an import, inside its transaction). */
  importRecord(record: AuditRecord): void {
    this.#importRecord.run(record.id, ...rowOf(record));
  }

  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage> {
    const { conditions, values } = whereClause((parameter) => auditConditions(filter, parameter), () => '?');
    const rows = this.#query(`SELECT ${selectedAuditColumns} FROM audit_logs WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...values, limit, offset) as Array<Record<string, unknown>>;
    const counted = this.#query(`SELECT count(*) AS total FROM audit_logs WHERE ${conditions}`).get(...values) as { total: number };
    return { items: rows.map(auditRecordOfRow), total: Number(counted.total) };
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    return this.#groupCommit.run(() => this.#removeBefore.run(createdBefore, limit).changes);
  }

  #query(text: string): Database.Statement {
    let statement = this.#queries.get(text);
    if (statement === undefined) this.#queries.set(text, (statement = this.#database.prepare(text)));
    return statement;
  }
}

/** A record's values in the order of {@link auditColumns}, as SQLite stores them: before and after as JSON text. */
function rowOf(record: NewAuditRecord): unknown[] {
  return auditColumns.map((column) => (column === 'before' || column === 'after' ? JSON.stringify(record[column]) : record[column]));
}
