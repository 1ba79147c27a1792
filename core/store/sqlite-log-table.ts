import type Database from 'better-sqlite3';

/** Which log table, and how its rows are named and read. */
export interface SqliteLogTableShape<LogRecord> {
  /** The table's name, such as `usage_logs`. */
  table: string;
  /** Every column but `id` as SQL names them, in the order of the values an insert gives. */
  columns: readonly string[];
  /** What a read selects: `id` and the columns, as SQL names them. */
  selected: string;
  /** A selected row as a record. */
  recordOfRow: (row: Record<string, unknown>) => LogRecord;
}

/**
 * What the sqlite usage log and audit trail share about their table (an AUTOINCREMENT `id`
 * and a `created_at`): the statements each of them needs, prepared once, the export read, and
 * the filtered queries, prepared on first use and kept by their text. Writes stay with the
 * store, which runs them inside its group commit.
 */
export class SqliteLogTable<LogRecord> {
  /** Inserts a row: the values of {@link SqliteLogTableShape.columns}, in order. */
  readonly insert: Database.Statement;
  /** Removes at most a number of the rows created before a time. */
  readonly removeBefore: Database.Statement<[number, number]>;
  /** Writes a row with its own id (an import): the id, then the values of the columns. */
  readonly importRecord: Database.Statement;
  readonly #exportPage: Database.Statement<[number, number]>;
  readonly #recordOfRow: (row: Record<string, unknown>) => LogRecord;
  readonly #database: Database.Database;
  /** Queries by their text: a filter's fields decide the text, so there are few. */
  readonly #queries = new Map<string, Database.Statement>();

  constructor(database: Database.Database, shape: SqliteLogTableShape<LogRecord>) {
    const { table, columns, selected } = shape;
    this.#database = database;
    this.#recordOfRow = shape.recordOfRow;
    this.insert = database.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    // Oldest first, through the index on created_at: a small batch never waits on a long scan.
    this.removeBefore = database.prepare(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE created_at < ? ORDER BY created_at LIMIT ?)`);
    this.#exportPage = database.prepare(`SELECT ${selected} FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`);
    // An imported id past the table's sequence moves the sequence on (AUTOINCREMENT), so new ids follow it.
    this.importRecord = database.prepare(`INSERT OR REPLACE INTO ${table} (${selected}) VALUES (${['id', ...columns].map(() => '?').join(', ')})`);
  }

  /** Every record, oldest first, a page at a time; run inside the export's read transaction, it reads that one snapshot. */
  *exportRecords(pageSize: number): Generator<LogRecord> {
    for (let after = 0; ; ) {
      const rows = this.#exportPage.all(after, pageSize) as Array<Record<string, unknown>>;
      for (const row of rows) yield this.#recordOfRow(row);
      if (rows.length < pageSize) return;
      after = Number((rows.at(-1) as Record<string, unknown>).id);
    }
  }

  /** The statement of a query's text, prepared the first time it is asked for. */
  query(text: string): Database.Statement {
    let statement = this.#queries.get(text);
    if (statement === undefined) this.#queries.set(text, (statement = this.#database.prepare(text)));
    return statement;
  }
}
