import type pg from 'pg';
import { usageScanPageSize, type UsageDay, type UsageFilter, type UsageLogStore, type UsagePage, type UsageStat } from '../usage/usage-log-store.js';
import type { NewUsageRecord, UsageRecord } from '../usage/usage-record.js';
import { sqlColumn, usageColumns, usageConditions, usageDayOfRow, usageRecordOfRow, whereClause } from './usage-log-sql.js';

/** Each column's type, for reading a batch's JSON into rows. */
const columnTypes: Readonly<Record<(typeof usageColumns)[number], string>> = {
  created_at: 'bigint',
  type: 'smallint',
  user_id: 'bigint',
  token_id: 'bigint',
  token_name: 'text',
  model_name: 'text',
  upstream_model: 'text',
  operation: 'text',
  client_format: 'text',
  group: 'text',
  is_stream: 'boolean',
  prompt_tokens: 'bigint',
  completion_tokens: 'bigint',
  cached_tokens: 'bigint',
  reasoning_tokens: 'bigint',
  quota: 'bigint',
  usage_source: 'text',
  status: 'integer',
  error_code: 'text',
  end_reason: 'text',
  budget_overrun: 'text',
  use_time_ms: 'bigint',
  first_byte_ms: 'bigint',
  request_id: 'text',
  task_id: 'text',
  channel: 'text',
  attempts: 'json',
};

/**
 * The usage log of the postgres driver: the `usage_logs` table of the schema (migration 4 of
 * core/store/postgres-migrations.ts), shared by every instance, so each one's API shows every
 * instance's records. A batch is one INSERT of the batch as one JSON document
 * (`json_to_recordset`): one statement, one durable commit, one JSON text built for the whole
 * batch. Retention removes rows with `FOR UPDATE SKIP LOCKED`, so instances removing at the
 * same moment never wait on each other.
 */
export class PostgresUsageLogStore implements UsageLogStore {
  readonly #pool: pg.Pool;
  readonly #table: string;
  readonly #insert: string;
  readonly #import: string;
  readonly #selected = ['id', ...usageColumns].map(sqlColumn).join(', ');

  /** `schema` is quoted already. */
  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#table = `${schema}.usage_logs`;
    const columns = usageColumns.map(sqlColumn).join(', ');
    const definitions = usageColumns.map((column) => `${sqlColumn(column)} ${columnTypes[column]}`).join(', ');
    this.#insert = `INSERT INTO ${this.#table} (${columns}) SELECT ${columns} FROM json_to_recordset($1::json) AS batch (${definitions})`;
    this.#import = `
      INSERT INTO ${this.#table} (id, ${columns}) SELECT id, ${columns} FROM json_to_recordset($1::json) AS batch (id bigint, ${definitions})
      ON CONFLICT (id) DO UPDATE SET (${columns}) = (${usageColumns.map((column) => `excluded.${sqlColumn(column)}`).join(', ')})`;
  }

  /** One page of every record, oldest first, after id `after`: an export reads them on its own transaction's `client`. */
  async exportPage(client: pg.PoolClient, after: number, limit: number): Promise<UsageRecord[]> {
    const { rows } = await client.query(`SELECT ${this.#selected} FROM ${this.#table} WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit]);
    return rows.map(usageRecordOfRow);
  }

  /** Writes records with their own ids, on an import's transaction's `client`; {@link continueIds} after the last batch. */
  async importRecords(client: pg.PoolClient, records: readonly UsageRecord[]): Promise<void> {
    if (records.length > 0) await client.query(this.#import, [JSON.stringify(records)]);
  }

  /** Moves the id sequence past the largest id, so new records' ids follow imported ones. */
  async continueIds(client: pg.PoolClient): Promise<void> {
    await client.query(`SELECT setval(pg_get_serial_sequence('${this.#table}', 'id'), max(id)) FROM ${this.#table} HAVING max(id) IS NOT NULL`);
  }

  async append(records: readonly NewUsageRecord[]): Promise<void> {
    if (records.length > 0) await this.#pool.query(this.#insert, [JSON.stringify(records)]);
  }

  async page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage> {
    const { conditions, values } = whereOf(filter);
    const [rows, counted] = await Promise.all([
      this.#pool.query(`SELECT ${this.#selected} FROM ${this.#table} WHERE ${conditions} ORDER BY created_at DESC, id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`, values),
      this.#pool.query<{ total: string }>(`SELECT count(*) AS total FROM ${this.#table} WHERE ${conditions}`, values),
    ]);
    return { items: rows.rows.map(usageRecordOfRow), total: Number(counted.rows[0]?.total ?? 0) };
  }

  async stat(filter: UsageFilter): Promise<UsageStat> {
    const { conditions, values } = whereOf(filter);
    const { rows } = await this.#pool.query<Record<string, string>>(
      `SELECT coalesce(sum(quota), 0) AS quota, count(*) AS requests, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
         coalesce(sum(completion_tokens), 0) AS completion_tokens
       FROM ${this.#table} WHERE ${conditions}`,
      values,
    );
    const row = rows[0] ?? {};
    return { quota: Number(row.quota ?? 0), requests: Number(row.requests ?? 0), prompt_tokens: Number(row.prompt_tokens ?? 0), completion_tokens: Number(row.completion_tokens ?? 0) };
  }

  async daily(filter: UsageFilter): Promise<UsageDay[]> {
    const { conditions, values } = whereOf(filter);
    const { rows } = await this.#pool.query<Record<string, string>>(
      `SELECT to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, model_name, count(*) AS requests, sum(quota) AS quota,
         sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens
       FROM ${this.#table} WHERE ${conditions} GROUP BY 1, 2 ORDER BY 1, model_name COLLATE "C"`,
      values,
    );
    return rows.map(usageDayOfRow);
  }

  /** Page after page, each after the last record of the one before, each on whichever pooled connection is free. */
  async *scan(filter: UsageFilter): AsyncGenerator<UsageRecord> {
    const { conditions, values } = whereOf(filter);
    const order = `ORDER BY created_at DESC, id DESC LIMIT ${usageScanPageSize}`;
    let { rows } = await this.#pool.query(`SELECT ${this.#selected} FROM ${this.#table} WHERE ${conditions} ${order}`, values);
    const after = `SELECT ${this.#selected} FROM ${this.#table} WHERE ${conditions} AND (created_at, id) < ($${values.length + 1}::bigint, $${values.length + 2}::bigint) ${order}`;
    for (;;) {
      const records = rows.map(usageRecordOfRow);
      yield* records;
      const last = records.at(-1);
      if (last === undefined || records.length < usageScanPageSize) return;
      ({ rows } = await this.#pool.query(after, [...values, last.created_at, last.id]));
    }
  }

  async removeBefore(createdBefore: number, limit: number): Promise<number> {
    const removed = await this.#pool.query(
      `DELETE FROM ${this.#table} WHERE id IN (SELECT id FROM ${this.#table} WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [createdBefore, limit],
    );
    return removed.rowCount ?? 0;
  }
}

/** The WHERE conditions of `filter` with the driver's placeholders, and their values in order. */
const whereOf = (filter: UsageFilter) => whereClause((parameter) => usageConditions(filter, parameter), (position) => `$${position}`);
