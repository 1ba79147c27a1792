import type pg from 'pg';
import type { AuditFilter, AuditLogStore, AuditPage } from '../audit/audit-log-store.js';
import type { AuditRecord, NewAuditRecord } from '../audit/audit-record.js';
import { auditColumns, auditConditions, auditRecordOfRow, selectedAuditColumns } from './audit-log-sql.js';
import { whereClause } from './usage-log-sql.js';

/** Each column's type, for reading an import's JSON into rows. */
const columnTypes: Readonly<Record<(typeof auditColumns)[number], string>> = {
  created_at: 'bigint',
  action: 'text',
  user_id: 'bigint',
  username: 'text',
  ip: 'text',
  source: 'text',
  request_id: 'text',
  target_id: 'text',
  target_name: 'text',
  before: 'json',
  after: 'json',
};

/**
 * The audit trail of the postgres driver: the `audit_logs` table of the schema (migration 7 of
 * core/store/postgres-migrations.ts), shared by every instance. Each record is one INSERT,
 * committed durably before it is answered. Retention removes rows with `FOR UPDATE SKIP
 * LOCKED`, so instances removing at the same moment never wait on each other.
 */
export class PostgresAuditLogStore implements AuditLogStore {
  readonly #pool: pg.Pool;
  readonly #table: string;
  readonly #insert: string;
  readonly #import: string;

  /** `schema` is quoted already. */
  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#table = `${schema}.audit_logs`;
    const columns = auditColumns.map((column) => `"${column}"`).join(', ');
    this.#insert = `INSERT INTO ${this.#table} (${columns}) VALUES (${auditColumns.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id`;
    const definitions = auditColumns.map((column) => `"${column}" ${columnTypes[column]}`).join(', ');
    this.#import = `
      INSERT INTO ${this.#table} (id, ${columns}) SELECT id, ${columns} FROM json_to_recordset($1::json) AS batch (id bigint, ${definitions})
      ON CONFLICT (id) DO UPDATE SET (${columns}) = (${auditColumns.map((column) => `excluded."${column}"`).join(', ')})`;
  }

  /** One page of every record, oldest first, after id `after`: an export reads them on its own transaction's `client`. */
  async exportPage(client: pg.PoolClient, after: number, limit: number): Promise<AuditRecord[]> {
    const { rows } = await client.query(`SELECT ${selectedAuditColumns} FROM ${this.#table} WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit]);
    return rows.map(auditRecordOfRow);
  }

  /** Writes records with their own ids, on an import's transaction's `client`; {@link continueIds} after the last batch. */
  async importRecords(client: pg.PoolClient, records: readonly AuditRecord[]): Promise<void> {
    if (records.length > 0) await client.query(this.#import, [JSON.stringify(records)]);
  }

  /** Moves the id sequence past the largest id, so new records' ids follow imported ones. */
  async continueIds(client: pg.PoolClient): Promise<void> {
    await client.query(`SELECT setval(pg_get_serial_sequence('${this.#table}', 'id'), max(id)) FROM ${this.#table} HAVING max(id) IS NOT NULL`);
  }

  async append(record: NewAuditRecord): Promise<AuditRecord> {
    // json parameters go as text: pg would send a JS array as a PostgreSQL array.
    const values = auditColumns.map((column) => (column === 'before' || column === 'after' ? JSON.stringify(record[column]) : record[column]));
    const { rows } = await this.#pool.query<{ id: string }>(this.#insert, values);
    return { ...record, id: Number(rows[0]?.id) };
  }

  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditPage> {
    const { conditions, values } = whereClause((parameter) => auditConditions(filter, parameter), (position) => `$${position}`);
    const [rows, counted] = await Promise.all([
      this.#pool.query(`SELECT ${selectedAuditColumns} FROM ${this.#table} WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`, values),
      this.#pool.query<{ total: string }>(`SELECT count(*) AS total FROM ${this.#table} WHERE ${conditions}`, values),
    ]);
    return { items: rows.rows.map(auditRecordOfRow), total: Number(counted.rows[0]?.total ?? 0) };
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    const removed = await this.#pool.query(
      `DELETE FROM ${this.#table} WHERE id IN (SELECT id FROM ${this.#table} WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [createdBefore, limit],
    );
    return removed.rowCount ?? 0;
  }
}
