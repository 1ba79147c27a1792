import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import Database from 'better-sqlite3';
import { StartupError } from '../errors/startup-error.js';

/**
 * `PRAGMA user_version` of a database in the one-file layout. 0 is a database this code has
 * not set up yet: new, or the records file of the two-file layout.
 */
const oneFileLayoutVersion = 1;

/** The primitives' tables and their columns, in the order the two layouts share. */
const primitiveTables: Readonly<Record<string, string>> = {
  counters: 'key, value',
  windows: 'key, count, reset_at',
  set_members: 'set_key, member',
  balances: 'account, remain, used',
  rate_buckets: 'key, full_at, returned',
};

// A hold counted in budget windows has a row in `hold_budgets` beside its row in `holds`: the
// windows' keys (JSON) and the units counted in each; a table of its own, so holds of a
// database written before budgets keep their shape.
// `records` has the shape @keyv/sqlite gave the records file of the two-file layout, so that
// file is already this database's records table. `usage_logs` is the usage log
// (core/store/sqlite-usage-log-store.ts); its indexes serve a user's newest records (every
// index ends with the rowid, `id`, so `ORDER BY created_at DESC, id DESC` reads one backwards),
// the admin's, the retention's oldest, and a request id. `audit_logs` is the audit trail
// (core/store/sqlite-audit-log-store.ts): the newest records and the retention's oldest, an
// actor's.
const schema = `
  CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value TEXT);
  CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS windows (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS windows_reset ON windows (reset_at);
  CREATE TABLE IF NOT EXISTS set_members (set_key TEXT NOT NULL, member TEXT NOT NULL, PRIMARY KEY (set_key, member)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS balances (account TEXT PRIMARY KEY, remain INTEGER NOT NULL, used INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS rate_buckets (key TEXT PRIMARY KEY, full_at REAL NOT NULL, returned REAL NOT NULL);
  CREATE TABLE IF NOT EXISTS holds (id TEXT PRIMARY KEY, account TEXT NOT NULL, units INTEGER NOT NULL, owner TEXT NOT NULL, expires_at INTEGER);
  CREATE INDEX IF NOT EXISTS holds_expiry ON holds (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE IF NOT EXISTS budget_windows (key TEXT PRIMARY KEY, used INTEGER NOT NULL, ends_at INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS budget_windows_end ON budget_windows (ends_at);
  CREATE TABLE IF NOT EXISTS hold_budgets (id TEXT PRIMARY KEY, windows TEXT NOT NULL, units INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS slots (key TEXT NOT NULL, id TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (key, id)) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS slots_id ON slots (id);
  CREATE TABLE IF NOT EXISTS usage_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at INTEGER NOT NULL, type INTEGER NOT NULL, user_id INTEGER NOT NULL, token_id INTEGER NOT NULL,
    token_name TEXT NOT NULL, model_name TEXT NOT NULL, upstream_model TEXT NOT NULL, operation TEXT NOT NULL,
    client_format TEXT NOT NULL, "group" TEXT NOT NULL, is_stream INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, cached_tokens INTEGER NOT NULL, reasoning_tokens INTEGER NOT NULL,
    quota INTEGER NOT NULL, usage_source TEXT NOT NULL, status INTEGER NOT NULL, error_code TEXT NOT NULL, end_reason TEXT NOT NULL,
    budget_overrun TEXT NOT NULL DEFAULT '',
    use_time_ms INTEGER NOT NULL, first_byte_ms INTEGER NOT NULL, request_id TEXT NOT NULL, task_id TEXT NOT NULL,
    channel TEXT NOT NULL, attempts TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS usage_logs_user_time ON usage_logs (user_id, created_at);
  CREATE INDEX IF NOT EXISTS usage_logs_time ON usage_logs (created_at);
  CREATE INDEX IF NOT EXISTS usage_logs_request ON usage_logs (request_id);
  CREATE TABLE IF NOT EXISTS audit_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at INTEGER NOT NULL, action TEXT NOT NULL, user_id INTEGER NOT NULL, username TEXT NOT NULL, ip TEXT NOT NULL,
    source TEXT NOT NULL, request_id TEXT NOT NULL, target_id TEXT NOT NULL, target_name TEXT NOT NULL,
    "before" TEXT NOT NULL, "after" TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS audit_logs_time ON audit_logs (created_at);
  CREATE INDEX IF NOT EXISTS audit_logs_user_time ON audit_logs (user_id, created_at);
`;

/** An open database, and what its opening did with a two-file layout it found. */
export interface OpenedSqliteDatabase {
  database: Database.Database;
  /**
   * Set when a ledger file of the two-file layout was found: where it went, and whether its
   * rows were copied now (false when an earlier start had, and stopped before the rename).
   */
  migration?: { ledgerFile: string; keptAs: string; copied: boolean };
}

/** The ledger file of the two-file layout beside `file`: `data/gateway.sqlite` → `data/gateway-ledger.sqlite`. */
export function ledgerFileOf(file: string): string {
  const extension = extname(file);
  return `${file.slice(0, file.length - extension.length)}-ledger${extension === '' ? '.sqlite' : extension}`;
}

/**
 * Opens (creating when absent) the gateway's one SQLite database: keyv's records and the
 * primitives in one file, on one connection, WAL with `synchronous=NORMAL`.
 *
 * A data directory in the two-file layout (records in `file`, written by @keyv/sqlite, and
 * the primitives in `<name>-ledger.sqlite`) is migrated on the way, exactly once: the ledger's
 * rows are copied into `file` and `user_version` is set in one IMMEDIATE transaction, so a
 * crash leaves either the old layout, done again on the next start, or the new one, whose
 * version says it is done. Only after that commit is the ledger file renamed aside (kept, not
 * deleted); a ledger still there beside a migrated database (a crash before the rename) is
 * renamed without being copied again. Processes opening the file at the same time take turns
 * on the transaction, and only the first copies.
 */
export function openSqliteDatabase(file: string): OpenedSqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // The workers of one gateway (server.workers > 1) write the same file. Another process holds
  // the write lock for one synchronous transaction at most (microseconds: none spans an
  // await), so a write that finds it busy waits, up to 5 s, rather than failing; only a
  // deferred transaction that reads before it writes could fail at once (SQLITE_BUSY_SNAPSHOT),
  // and every transaction here that writes is IMMEDIATE or starts with its write.
  const database = new Database(file, { timeout: 5000 });
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    const ledgerFile = file === ':memory:' ? undefined : ledgerFileOf(file);
    if (ledgerFile === undefined || !existsSync(ledgerFile)) {
      setUpSchema(database, () => {});
      return { database };
    }
    database.prepare('ATTACH DATABASE ? AS ledger').run(ledgerFile);
    let copied: boolean;
    try {
      copied = setUpSchema(database, () => copyLedger(database, ledgerFile));
    } finally {
      database.exec('DETACH DATABASE ledger');
    }
    const keptAs = setAside(ledgerFile);
    return keptAs === undefined ? { database } : { database, migration: { ledgerFile, keptAs, copied } };
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * Creates the tables and, on a database not yet set up, runs `migrate` in the same
 * transaction. Returns whether `migrate` ran.
 */
function setUpSchema(database: Database.Database, migrate: () => void): boolean {
  return database
    .transaction(() => {
      database.exec(schema);
      addMissingColumns(database);
      if (Number(database.pragma('user_version', { simple: true })) >= oneFileLayoutVersion) return false;
      migrate();
      database.pragma(`user_version = ${oneFileLayoutVersion}`);
      return true;
    })
    .immediate();
}

/**
 * Columns added to a table after it was first created: `CREATE TABLE IF NOT EXISTS` leaves a
 * table of an earlier version as it was, so each is added here when it is missing, inside the
 * schema's IMMEDIATE transaction (one process at a time).
 */
const addedColumns: ReadonlyArray<{ table: string; column: string; definition: string }> = [{ table: 'usage_logs', column: 'budget_overrun', definition: "TEXT NOT NULL DEFAULT ''" }];

function addMissingColumns(database: Database.Database): void {
  for (const { table, column, definition } of addedColumns) {
    const present = database.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().some((row) => row.name === column);
    if (!present) database.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}

/** Copies every row of the attached ledger's tables; a table it does not know stops the start. */
function copyLedger(database: Database.Database, ledgerFile: string): void {
  const tables = database.prepare<[], string>("SELECT name FROM ledger.sqlite_master WHERE type = 'table'").pluck().all();
  const unknown = tables.filter((table) => !Object.hasOwn(primitiveTables, table));
  if (unknown.length > 0) {
    throw new StartupError(
      `${ledgerFile} holds tables this gateway does not know (${unknown.join(', ')}), so merging it into the one database could lose data; ` +
        'start the gateway version that wrote it, or move the file away if its data is not needed',
    );
  }
  for (const table of tables) {
    const columns = primitiveTables[table] as string;
    database.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM ledger.${table}`);
  }
}

/**
 * Renames the merged ledger file (and a WAL or shared-memory file left beside it) to
 * `<ledger>.migrated`, or `<ledger>.migrated-<ms since epoch>` when that name is taken.
 * Returns the new name, or undefined when another process renamed it first.
 */
function setAside(ledgerFile: string): string | undefined {
  const target = existsSync(`${ledgerFile}.migrated`) ? `${ledgerFile}.migrated-${Date.now()}` : `${ledgerFile}.migrated`;
  try {
    renameSync(ledgerFile, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${ledgerFile}${suffix}`)) renameSync(`${ledgerFile}${suffix}`, `${target}${suffix}`);
  }
  return target;
}
