import type Database from 'better-sqlite3';
import { usageScanPageSize, type UsageDay, type UsageFilter, type UsageLogStore, type UsagePage, type UsageStat } from '../usage/usage-log-store.js';
import type { NewUsageRecord, UsageRecord } from '../usage/usage-record.js';
import type { SqliteGroupCommit } from './sqlite-group-commit.js';
import { SqliteLogTable } from './sqlite-log-table.js';
import { sqlColumn, usageColumns, usageConditions, usageDayOfRow, usageRecordOfRow, whereClause } from './usage-log-sql.js';

const selectedColumns = ['id', ...usageColumns].map(sqlColumn).join(', ');

/**
 * The usage log of the sqlite driver: the `usage_logs` table of the one database file
 * (core/store/sqlite-database.ts). A batch is inserted inside the group commit's IMMEDIATE
 * transaction, so it shares the WAL commit of the quota writes of its turn, and the workers of
 * one gateway write the file as they write everything else: one transaction at a time, which
 * SQLite serializes across processes. Ids come from the table (AUTOINCREMENT: never reused,
 * also after the oldest records are removed).
 */
export class SqliteUsageLogStore implements UsageLogStore {
  readonly #groupCommit: SqliteGroupCommit;
  readonly #table: SqliteLogTable<UsageRecord>;

  constructor(database: Database.Database, groupCommit: SqliteGroupCommit) {
    this.#groupCommit = groupCommit;
    this.#table = new SqliteLogTable(database, { table: 'usage_logs', columns: usageColumns.map(sqlColumn), selected: selectedColumns, recordOfRow: usageRecordOfRow });
  }

  async append(records: readonly NewUsageRecord[]): Promise<void> {
    await this.#groupCommit.run(() => {
      for (const record of records) this.#table.insert.run(...rowOf(record));
    });
  }

  async page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
    const { conditions, values } = whereOf(filter);
    const rows = this.#query(`SELECT ${selectedColumns} FROM usage_logs WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...values, limit, offset) as Array<Record<string, unknown>>;
    const counted = this.#query(`SELECT count(*) AS total FROM usage_logs WHERE ${conditions}`).get(...values) as { total: number };
    return { items: rows.map(usageRecordOfRow), total: Number(counted.total) };
  }

  async stat(filter: UsageFilter): Promise<UsageStat> {
    const { conditions, values } = whereOf(filter);
    const row = this.#query(
      `SELECT total(quota) AS quota, count(*) AS requests, total(prompt_tokens) AS prompt_tokens, total(completion_tokens) AS completion_tokens FROM usage_logs WHERE ${conditions}`,
    ).get(...values) as Record<string, number>;
    return { quota: Number(row.quota), requests: Number(row.requests), prompt_tokens: Number(row.prompt_tokens), completion_tokens: Number(row.completion_tokens) };
  }

  async daily(filter: UsageFilter): Promise<UsageDay[]> {
    const { conditions, values } = whereOf(filter);
    const rows = this.#query(
      `SELECT strftime('%Y-%m-%d', created_at, 'unixepoch') AS day, model_name, count(*) AS requests, total(quota) AS quota,
         total(prompt_tokens) AS prompt_tokens, total(completion_tokens) AS completion_tokens
       FROM usage_logs WHERE ${conditions} GROUP BY day, model_name ORDER BY day, model_name`,
    ).all(...values) as Array<Record<string, unknown>>;
    return rows.map(usageDayOfRow);
  }

  /** Page after page, each after the last record of the one before (no statement stays open across an await). */
  async *scan(filter: UsageFilter): AsyncGenerator<UsageRecord> {
    const { conditions, values } = whereOf(filter);
    const first = this.#query(`SELECT ${selectedColumns} FROM usage_logs WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ?`);
    const next = this.#query(`SELECT ${selectedColumns} FROM usage_logs WHERE ${conditions} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`);
    let rows = first.all(...values, usageScanPageSize) as Array<Record<string, unknown>>;
    for (;;) {
      const records = rows.map(usageRecordOfRow);
      yield* records;
      const last = records.at(-1);
      if (last === undefined || records.length < usageScanPageSize) return;
      rows = next.all(...values, last.created_at, last.id, usageScanPageSize) as Array<Record<string, unknown>>;
    }
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    // In the group commit's IMMEDIATE transaction: one worker's removal at a time.
    return this.#groupCommit.run(() => this.#table.removeBefore.run(createdBefore, limit).changes);
  }

  /** Every record, oldest first, a page at a time; run inside the export's read transaction, it reads that one snapshot. */
  exportRecords(pageSize: number): Generator<UsageRecord> {
    return this.#table.exportRecords(pageSize);
  }

  /** Writes a record with its own id (an import, inside its transaction). */
  importRecord(record: UsageRecord): void {
    this.#table.importRecord.run(record.id, ...rowOf(record));
  }

  #query(text: string): Database.Statement {
    return this.#table.query(text);
  }
}

/** The WHERE conditions of `filter` with the driver's placeholders, and their values in order. */
const whereOf = (filter: UsageFilter) => whereClause((parameter) => usageConditions(filter, parameter), () => '?');

/**
 * A record's values in the order of {@link usageColumns}, as SQLite stores them: booleans as 0
 * or 1, the attempts as JSON. Written out field by field: it runs once per record written, and
 * a loop over the column names cost a sixth more per insert.
 */
function rowOf(record: NewUsageRecord): unknown[] {
  return [
    record.created_at,
    record.type,
    record.user_id,
    record.token_id,
    record.token_name,
    record.model_name,
    record.upstream_model,
    record.operation,
    record.client_format,
    record.group,
    record.is_stream ? 1 : 0,
    record.prompt_tokens,
    record.completion_tokens,
    record.cached_tokens,
    record.reasoning_tokens,
    record.quota,
    record.usage_source,
    record.status,
    record.error_code,
    record.end_reason,
    record.budget_overrun,
    record.use_time_ms,
    record.first_byte_ms,
    record.request_id,
    record.task_id,
    record.channel,
    JSON.stringify(record.attempts),
  ];
}
