import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { QuotaBalance, StoreBackend, WindowHit } from './store-backend.js';

type Row = Record<string, unknown>;

/**
 * The embedded default: one SQLite file, one connection shared by keyv and the primitives.
 * Each primitive is a single SQL statement, which SQLite runs atomically, also across
 * processes that open the same file. WAL with synchronous=NORMAL survives a process crash
 * (kill -9) without losing a committed write.
 */
export class SqliteStoreBackend implements StoreBackend {
  readonly driver = 'sqlite';
  readonly #adapter: KeyvSqlite;
  readonly #ready: Promise<void>;
  readonly #keyvs = new Map<string, Keyv>();
  readonly #messages = new EventEmitter();

  private constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#adapter = new KeyvSqlite({ uri: `sqlite://${file}`, table: 'records', busyTimeout: 5000 });
    // Failures reach callers as rejections; an unheard error event would crash the process.
    this.#adapter.on('error', () => {});
    this.#ready = this.#migrate();
  }

  /** Opens (creating when absent) the SQLite file and its tables. */
  static async open(file: string): Promise<SqliteStoreBackend> {
    const backend = new SqliteStoreBackend(file);
    await backend.#ready;
    return backend;
  }

  async #migrate(): Promise<void> {
    const statements = [
      'PRAGMA journal_mode = WAL',
      'PRAGMA synchronous = NORMAL',
      'CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL)',
      'CREATE TABLE IF NOT EXISTS windows (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL)',
      'CREATE TABLE IF NOT EXISTS set_members (set_key TEXT NOT NULL, member TEXT NOT NULL, PRIMARY KEY (set_key, member)) WITHOUT ROWID',
      'CREATE TABLE IF NOT EXISTS balances (account TEXT PRIMARY KEY, remain INTEGER NOT NULL, used INTEGER NOT NULL)',
    ];
    for (const statement of statements) await this.#adapter.query(statement);
  }

  #query(sql: string, ...parameters: unknown[]): Promise<Row[]> {
    return this.#adapter.query(sql, ...parameters) as Promise<Row[]>;
  }

  keyv<Value>(namespace: string): Keyv<Value> {
    let keyv = this.#keyvs.get(namespace);
    if (keyv === undefined) {
      keyv = new Keyv({ store: this.#adapter, namespace, throwOnErrors: true, emitErrors: false });
      this.#keyvs.set(namespace, keyv);
    }
    return keyv as Keyv<Value>;
  }

  async increment(key: string, by = 1): Promise<number> {
    const rows = await this.#query(
      'INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value RETURNING value',
      key,
      by,
    );
    return Number(rows[0]?.value);
  }

  async hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit> {
    const now = Date.now();
    const rows = await this.#query(
      `INSERT INTO windows (key, count, reset_at) VALUES (?1, 1, ?2 + ?3)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= ?2 THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= ?2 THEN ?2 + ?3 ELSE reset_at END
       RETURNING count, reset_at`,
      key,
      now,
      windowMilliseconds,
    );
    return { count: Number(rows[0]?.count), resetInMilliseconds: Number(rows[0]?.reset_at) - now };
  }

  async addToSet(key: string, members: readonly string[]): Promise<void> {
    await this.#query('INSERT OR IGNORE INTO set_members (set_key, member) SELECT ?, value FROM json_each(?)', key, JSON.stringify(members));
  }

  async removeFromSet(key: string, members: readonly string[]): Promise<number> {
    const rows = await this.#query(
      'DELETE FROM set_members WHERE set_key = ? AND member IN (SELECT value FROM json_each(?)) RETURNING member',
      key,
      JSON.stringify(members),
    );
    return rows.length;
  }

  async setMembers(key: string): Promise<string[]> {
    const rows = await this.#query('SELECT member FROM set_members WHERE set_key = ?', key);
    return rows.map((row) => String(row.member));
  }

  async readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>> {
    const rows = await this.#query(
      'SELECT account, remain, used FROM balances WHERE account IN (SELECT value FROM json_each(?))',
      JSON.stringify(accounts),
    );
    return new Map(rows.map((row) => [String(row.account), { remain: Number(row.remain), used: Number(row.used) }]));
  }

  async writeRemaining(account: string, remain: number): Promise<void> {
    await this.#query(
      'INSERT INTO balances (account, remain, used) VALUES (?, ?, 0) ON CONFLICT (account) DO UPDATE SET remain = excluded.remain',
      account,
      remain,
    );
  }

  async deleteBalance(account: string): Promise<void> {
    await this.#query('DELETE FROM balances WHERE account = ?', account);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#messages.emit(channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#messages.on(channel, handler);
  }

  async ping(): Promise<void> {
    await this.#query('SELECT 1');
  }

  async close(): Promise<void> {
    this.#messages.removeAllListeners();
    await this.#adapter.disconnect();
  }
}
