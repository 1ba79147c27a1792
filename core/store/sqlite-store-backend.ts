import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import { assertQuotaUnits } from './quota-units.js';
import type { QuotaBalance, QuotaReservation, QuotaSettlement, StoreBackend, WindowHit } from './store-backend.js';

type Row = Record<string, unknown>;

/** Settlement rounds lost to concurrent writers before giving up; each lost round means another writer made progress. */
const maximumSettleRounds = 1000;

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

  async reserve(account: string, amount: number): Promise<QuotaReservation> {
    assertQuotaUnits('amount', amount);
    const rows = await this.#query('UPDATE balances SET remain = remain - ?2 WHERE account = ?1 AND remain >= ?2 RETURNING remain', account, amount);
    if (rows[0] !== undefined) return { granted: true, remain: Number(rows[0].remain) };
    // Refused: the balance is read again only to tell the caller what is left.
    return { granted: false, remain: (await this.#remainOf(account)) ?? 0 };
  }

  /**
   * RETURNING shows only the updated row, not the old one, so what a single UPDATE charged
   * cannot be read back. Instead the charge is guessed (the full cost first) and the UPDATE
   * applies only when the guess equals min(actual, remain + reserved) at that moment: each
   * applied statement is still one atomic step, and a wrong guess changes nothing and is
   * corrected from a fresh read.
   */
  async settle(account: string, reserved: number, actual: number): Promise<QuotaSettlement> {
    assertQuotaUnits('reserved', reserved);
    assertQuotaUnits('actual', actual);
    let charge = actual;
    for (let round = 0; round < maximumSettleRounds; round += 1) {
      const rows = await this.#query(
        `UPDATE balances SET remain = remain + ?2 - ?4, used = used + ?4
         WHERE account = ?1 AND max(0, min(?3, remain + ?2)) = ?4
         RETURNING remain, used`,
        account,
        reserved,
        actual,
        charge,
      );
      if (rows[0] !== undefined) return { remain: Number(rows[0].remain), used: Number(rows[0].used), charged: charge };
      const remain = await this.#remainOf(account);
      if (remain === undefined) return { remain: 0, used: 0, charged: 0 };
      charge = Math.max(0, Math.min(actual, remain + reserved));
    }
    throw new Error(`settling ${account} lost ${maximumSettleRounds} rounds to concurrent writers`);
  }

  async addUsed(account: string, amount: number): Promise<void> {
    assertQuotaUnits('amount', amount);
    await this.#query('UPDATE balances SET used = used + ?2 WHERE account = ?1', account, amount);
  }

  async #remainOf(account: string): Promise<number | undefined> {
    const rows = await this.#query('SELECT remain FROM balances WHERE account = ?', account);
    return rows[0] === undefined ? undefined : Number(rows[0].remain);
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
