import type Database from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import Keyv from 'keyv';
import { assertBudgetClaim, refusedBudget } from './budget-claim.js';
import { assertQuotaUnits } from './quota-units.js';
import { assertRateCorrection, assertRateDraws, correctBucket, drawOnBuckets, type RateBucketState } from './rate-bucket.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { prepareRecordStatements, SqliteKeyvStore, type RecordStatements } from './sqlite-keyv-store.js';
import { InProcessMessageBus, type StoreMessageBus } from './store-message-bus.js';
import { SqliteUsageLogStore } from './sqlite-usage-log-store.js';
import { SqliteAuditLogStore } from './sqlite-audit-log-store.js';
import type { BudgetClaim, BudgetWindowUsage, HoldLease, SettleOptions, QuotaBalance, QuotaReservation, QuotaSettlement, RateCorrection, RateDraw, RateDrawResult, ReturnedHold, SlotAcquisition, SlotClaim, SlotLease, StoreBackend, StoreEntry, StoreWrites, WindowHit } from './store-backend.js';
import { recordFormat } from './record-serializer.js';

/** How many rows {@link SqliteStoreBackend.exportEntries} reads per statement. */
const exportPageSize = 500;

/**
 * The embedded default: one SQLite file on one synchronous connection (better-sqlite3) with
 * statements prepared once. keyv's records live in its `records` table through
 * {@link SqliteKeyvStore}; the primitives (quota balances, counters, sets, rate buckets,
 * windows) in tables of their own beside it. A reservation or a settlement costs microseconds
 * on the calling thread instead of a round trip through the thread pool, and a token's record
 * and its balance are written in one transaction ({@link writeTogether}).
 *
 * Each primitive is one statement or runs inside one IMMEDIATE transaction, atomic also across
 * processes that open the same file; the quota writes of one event-loop turn share their
 * transaction ({@link SqliteGroupCommit}). WAL with synchronous=NORMAL survives a process
 * crash (kill -9) without losing a committed write, and nothing is acknowledged before its
 * commit. A data directory in the earlier two-file layout is migrated when it opens
 * ({@link openSqliteDatabase}).
 *
 * SQLite has no channel between processes, so {@link publish} and {@link subscribe} go over
 * the {@link StoreMessageBus} it is given: inside the process by default, through the cluster
 * primary for the workers of one gateway that share the file.
 */
export class SqliteStoreBackend implements StoreBackend {
  readonly driver = 'sqlite';
  readonly #file: string;
  readonly #database: Database.Database;
  readonly #statements: ReturnType<typeof prepareStatements>;
  readonly #recordStatements: RecordStatements;
  /** Quota writes and keyv's records, committed together per event-loop turn. */
  readonly #groupCommit: SqliteGroupCommit;
  readonly #keyvs = new Map<string, Keyv>();
  readonly #messages: StoreMessageBus;
  readonly #usageLog: SqliteUsageLogStore;
  readonly #auditLog: SqliteAuditLogStore;

  private constructor(file: string, database: Database.Database, messages: StoreMessageBus) {
    this.#file = file;
    this.#database = database;
    this.#messages = messages;
    this.#statements = prepareStatements(database);
    this.#recordStatements = prepareRecordStatements(database);
    this.#groupCommit = new SqliteGroupCommit(database);
    this.#usageLog = new SqliteUsageLogStore(database, this.#groupCommit);
    this.#auditLog = new SqliteAuditLogStore(database, this.#groupCommit);
  }

  /**
   * Opens (creating when absent) the SQLite file and its tables, migrating a two-file layout
   * it finds beside it; `logger` hears about a migration. `messages` carries
   * {@link publish}/{@link subscribe}: by default they stay inside this process; the workers
   * of one gateway sharing the file pass a bus that reaches all of them.
   */
  static async open(file: string, logger?: Pick<FastifyBaseLogger, 'info'>, messages: StoreMessageBus = new InProcessMessageBus()): Promise<SqliteStoreBackend> {
    let opened;
    try {
      opened = openSqliteDatabase(file);
    } catch (error) {
      messages.close();
      throw error;
    }
    const { database, migration } = opened;
    if (migration !== undefined) {
      logger?.info(
        { file, ledgerFile: migration.ledgerFile, keptAs: migration.keptAs },
        migration.copied
          ? 'merged the quota ledger of the two-file SQLite layout into the one database; the old ledger file is kept renamed'
          : 'the quota ledger of the two-file SQLite layout was already merged; the old ledger file is kept renamed',
      );
    }
    return new SqliteStoreBackend(file, database, messages);
  }

  keyv<Value>(namespace: string): Keyv<Value> {
    let keyv = this.#keyvs.get(namespace);
    if (keyv === undefined) {
      keyv = new Keyv({ store: new SqliteKeyvStore(this.#recordStatements, this.#groupCommit, this.#file), namespace, throwOnErrors: true, emitErrors: false, ...recordFormat });
      this.#keyvs.set(namespace, keyv);
    }
    return keyv as Keyv<Value>;
  }

  usageLog(): SqliteUsageLogStore {
    return this.#usageLog;
  }

  auditLog(): SqliteAuditLogStore {
    return this.#auditLog;
  }

  async writeTogether(writes: StoreWrites): Promise<void> {
    // Serialized before the transaction, as keyv would store them: keyv's serializer may be asynchronous.
    const records = await Promise.all(
      (writes.records ?? []).map(async ({ namespace, key, value }) => {
        const keyv = this.keyv(namespace);
        return { key: keyv._getKeyPrefix(key), value: (await keyv.serializeData({ value })) as string };
      }),
    );
    // In the group commit, as keyv's own writes are, so they keep their order; a savepoint
    // inside its transaction, so these writes land all together or not at all.
    await this.#groupCommit.run(() =>
      this.#database.transaction(() => {
        for (const record of records) this.#recordStatements.set.run(record.key, record.value);
        for (const { key, members } of writes.setAdditions ?? []) this.#statements.addToSet.run(key, JSON.stringify(members));
        for (const { account, remain } of writes.remaining ?? []) this.#statements.writeRemaining.run(account, remain);
      })(),
    );
  }

  async increment(key: string, by = 1): Promise<number> {
    return Number((this.#statements.increment.get(key, by) as Row).value);
  }

  async hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit> {
    const now = Date.now();
    const row = this.#statements.hitWindow.get({ key, now, window: windowMilliseconds }) as Row;
    return { count: Number(row.count), resetInMilliseconds: Number(row.reset_at) - now };
  }

  async sweepWindows(limit: number): Promise<number> {
    // One statement in the IMMEDIATE transaction of the group commit: a worker's hit and
    // another worker's sweep of the same window never interleave.
    return this.#groupCommit.run(() => {
      const now = Date.now();
      const removed = this.#statements.sweepWindows.run({ now, limit }).changes;
      return removed + (removed < limit ? this.#statements.sweepBudgetWindows.run({ now, limit: limit - removed }).changes : 0);
    });
  }

  async drawRates(draws: readonly RateDraw[]): Promise<RateDrawResult> {
    assertRateDraws(draws);
    // Read, decide and write inside the group's IMMEDIATE transaction, like a settlement: no
    // writer in any process comes between. Draws are writes on every request, so they share
    // the group commit with the quota writes.
    return this.#groupCommit.run(() => {
      const { result, next } = drawOnBuckets(draws.map((draw) => this.#rateBucket(draw.key)), draws, Date.now());
      next.forEach((state, index) => this.#statements.writeRateBucket.run((draws[index] as RateDraw).key, state.fullAt, state.returned));
      return result;
    });
  }

  async correctRate(correction: RateCorrection): Promise<void> {
    assertRateCorrection(correction);
    await this.#groupCommit.run(() => {
      const next = correctBucket(this.#rateBucket(correction.key), correction, Date.now());
      if (next !== undefined) this.#statements.writeRateBucket.run(correction.key, next.fullAt, next.returned);
    });
  }

  #rateBucket(key: string): RateBucketState | undefined {
    const row = this.#statements.rateBucket.get(key) as Row | undefined;
    return row === undefined ? undefined : { fullAt: Number(row.full_at), returned: Number(row.returned) };
  }

  async addToSet(key: string, members: readonly string[]): Promise<void> {
    this.#statements.addToSet.run(key, JSON.stringify(members));
  }

  async removeFromSet(key: string, members: readonly string[]): Promise<number> {
    return this.#statements.removeFromSet.run(key, JSON.stringify(members)).changes;
  }

  async setMembers(key: string): Promise<string[]> {
    return (this.#statements.setMembers.all(key) as Row[]).map((row) => String(row.member));
  }

  async readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>> {
    const rows = this.#statements.readBalances.all(JSON.stringify(accounts)) as Row[];
    return new Map(rows.map((row) => [String(row.account), { remain: Number(row.remain), used: Number(row.used) }]));
  }

  async writeRemaining(account: string, remain: number): Promise<void> {
    this.#statements.writeRemaining.run(account, remain);
  }

  async reserve(account: string, amount: number, lease?: HoldLease, budget?: BudgetClaim): Promise<QuotaReservation> {
    assertQuotaUnits('amount', amount);
    assertBudgetClaim(budget, lease);
    if (budget !== undefined && budget.windows.length > 0) return this.#groupCommit.run(() => this.#reserveInBudget(account, amount, lease as HoldLease, budget));
    return this.#groupCommit.run(() => {
      const row = this.#statements.reserve.get({ account, amount }) as Row | undefined;
      if (row !== undefined) {
        // The hold in the same transaction as the units it holds.
        if (lease !== undefined) this.#statements.insertHold.run(lease.id, account, amount, lease.owner, Date.now() + lease.leaseMilliseconds);
        return { granted: true, remain: Number(row.remain) };
      }
      // Refused: the balance is read again only to tell the caller what is left.
      const balance = this.#statements.balance.get(account) as Row | undefined;
      return { granted: false, remain: balance === undefined ? 0 : Number(balance.remain) };
    });
  }

  /** A reservation counted in budget windows: read, decided and written inside the group's IMMEDIATE transaction, nothing written when refused. */
  #reserveInBudget(account: string, amount: number, lease: HoldLease, budget: BudgetClaim): QuotaReservation {
    const balance = this.#statements.balance.get(account) as Row | undefined;
    const remain = balance === undefined ? 0 : Number(balance.remain);
    if (!budget.unlimited && (balance === undefined || remain < amount)) return { granted: false, remain };
    const used = budget.windows.map((window) => Number((this.#statements.budgetWindow.get(window.key) as Row | undefined)?.used ?? 0));
    const refused = refusedBudget(budget, amount, used);
    if (refused !== undefined) return { granted: false, remain, budget: refused };
    const units = budget.unlimited ? 0 : amount;
    const after = units > 0 ? Number((this.#statements.reserve.get({ account, amount: units }) as Row).remain) : remain;
    const counted = budget.windows.map((window) => Number((this.#statements.addToBudgetWindow.get(window.key, amount, window.endsAt) as Row).used));
    this.#statements.insertHold.run(lease.id, account, units, lease.owner, Date.now() + lease.leaseMilliseconds);
    this.#statements.insertHoldBudget.run(lease.id, JSON.stringify(budget.windows.map((window) => window.key)), amount);
    return { granted: true, remain: after, budget: { used: counted } };
  }

  async settle(account: string, reserved: number, actual: number, holdId?: string, options: SettleOptions = {}): Promise<QuotaSettlement> {
    const unlimited = options.unlimited === true;
    assertQuotaUnits('reserved', reserved);
    assertQuotaUnits('actual', actual);
    // Read, decide and write inside the group's IMMEDIATE transaction: no other writer, in any
    // process, comes between the read and the write.
    return this.#groupCommit.run(() => {
      // Looked up only for a hold reserved with budgets: one statement fewer for every other settlement.
      const budget = holdId === undefined || options.budget !== true ? undefined : this.#takeHoldBudget(holdId);
      const held = holdId === undefined || this.#statements.deleteHold.run(holdId).changes > 0;
      const given = held ? reserved : 0;
      const balance = this.#statements.balance.get(account) as Row | undefined;
      if (unlimited) {
        this.#correctBudget(budget, actual);
        if (balance === undefined) return { remain: 0, used: 0, charged: actual, held };
        const row = this.#statements.applySettlement.get(0, actual, account) as Row;
        return { remain: Number(row.remain), used: Number(row.used), charged: actual, held };
      }
      if (balance === undefined) {
        this.#correctBudget(budget, 0);
        return { remain: 0, used: 0, charged: 0, held };
      }
      const charged = Math.max(0, Math.min(actual, Number(balance.remain) + given));
      const row = this.#statements.applySettlement.get(given - charged, charged, account) as Row;
      this.#correctBudget(budget, charged);
      return { remain: Number(row.remain), used: Number(row.used), charged, held };
    });
  }

  /** Removes and returns the budget a hold counted in; undefined for a hold without one (or gone). */
  #takeHoldBudget(holdId: string): { windows: string[]; units: number } | undefined {
    const row = this.#statements.takeHoldBudget.get(holdId) as Row | undefined;
    return row === undefined ? undefined : { windows: JSON.parse(String(row.windows)) as string[], units: Number(row.units) };
  }

  /** Moves the windows a hold counted in from its units to `charged`; windows already swept stay absent. */
  #correctBudget(budget: { windows: string[]; units: number } | undefined, charged: number): void {
    if (budget === undefined || charged === budget.units) return;
    for (const key of budget.windows) this.#statements.correctBudgetWindow.run(charged - budget.units, key);
  }

  async readBudgetWindows(keys: readonly string[]): Promise<BudgetWindowUsage> {
    const rows = this.#statements.readBudgetWindows.all(JSON.stringify(keys)) as Row[];
    return new Map(rows.map((row) => [String(row.key), Number(row.used)]));
  }

  async detachHold(holdId: string): Promise<boolean> {
    return this.#groupCommit.run(() => this.#statements.detachHold.run(holdId).changes > 0);
  }

  async renewLeases(leases: { holds: readonly string[]; slots: readonly SlotLease[] }, leaseMilliseconds: number): Promise<void> {
    const expiresAt = Date.now() + leaseMilliseconds;
    await this.#groupCommit.run(() => {
      if (leases.holds.length > 0) this.#statements.renewHolds.run(expiresAt, JSON.stringify(leases.holds));
      if (leases.slots.length > 0) this.#statements.renewSlots.run(expiresAt, JSON.stringify(leases.slots.map((slot) => slot.id)));
    });
  }

  async sweepHolds(limit: number): Promise<ReturnedHold[]> {
    // Every worker on the file may sweep: the IMMEDIATE transaction lets one at a time decide,
    // and a hold another removed first is gone from the next one's read.
    return this.#groupCommit.run(() => {
      const expired = this.#statements.expiredHolds.all(Date.now(), limit) as Row[];
      for (const row of expired) {
        this.#correctBudget(this.#takeHoldBudget(String(row.id)), 0);
        this.#statements.deleteHold.run(row.id);
        this.#statements.applySettlement.run(Number(row.units), 0, row.account);
      }
      return expired.map((row) => ({ id: String(row.id), account: String(row.account), units: Number(row.units) }));
    });
  }

  async acquireSlots(claims: readonly SlotClaim[], lease: HoldLease): Promise<SlotAcquisition> {
    return this.#groupCommit.run((): SlotAcquisition => {
      const now = Date.now();
      for (const [index, claim] of claims.entries()) {
        this.#statements.removeExpiredSlots.run(claim.key, now);
        if (Number((this.#statements.countSlots.get(claim.key) as Row).count) >= claim.limit) return { granted: false, refused: index };
      }
      for (const claim of claims) this.#statements.insertSlot.run(claim.key, lease.id, now + lease.leaseMilliseconds);
      return { granted: true };
    });
  }

  async releaseSlot(slot: SlotLease): Promise<void> {
    await this.#groupCommit.run(() => this.#statements.releaseSlot.run(slot.id));
  }

  async addUsed(account: string, amount: number): Promise<void> {
    assertQuotaUnits('amount', amount);
    await this.#groupCommit.run(() => this.#statements.addUsed.run(amount, account));
  }

  async deleteBalance(account: string): Promise<void> {
    this.#statements.deleteBalance.run(account);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#messages.publish(channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#messages.subscribe(channel, handler);
  }

  /**
   * Reads inside one transaction, a page at a time: the pages all come from one snapshot of
   * the database (WAL), whatever is written meanwhile, and no statement stays open across an
   * `await`. The transaction ends when the iteration does, also when it stops early.
   */
  async *exportEntries(): AsyncGenerator<StoreEntry> {
    const exporting = prepareExportStatements(this.#database);
    this.#database.exec('BEGIN');
    try {
      for (let after = ''; ; ) {
        const rows = exporting.records.all(after, exportPageSize);
        for (const row of rows) yield { kind: 'record', key: row.key, value: row.value };
        if (rows.length < exportPageSize) break;
        after = (rows[rows.length - 1] as { key: string }).key;
      }
      for (let after = ''; ; ) {
        const keys = exporting.setKeys.all(after, exportPageSize);
        for (const key of keys) yield { kind: 'set', key, members: exporting.setMembers.all(key) };
        if (keys.length < exportPageSize) break;
        after = keys[keys.length - 1] as string;
      }
      for (const row of exporting.counters.all()) yield { kind: 'counter', key: row.key, value: Number(row.value) };
      for (const row of exporting.windows.all(Date.now())) yield { kind: 'window', key: row.key, count: Number(row.count), resetAt: Number(row.reset_at) };
      for (let after = ''; ; ) {
        const rows = exporting.balances.all(after, exportPageSize);
        for (const row of rows) yield { kind: 'balance', account: row.account, remain: Number(row.remain), used: Number(row.used) };
        if (rows.length < exportPageSize) break;
        after = (rows[rows.length - 1] as { account: string }).account;
      }
      for (const row of exporting.holds.all()) {
        const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
        const budget = row.windows === null ? {} : { budget: { windows: JSON.parse(row.windows) as string[], units: Number(row.budget_units) } };
        yield { kind: 'hold', id: row.id, account: row.account, units: Number(row.units), owner: row.owner, expiresAt, ...budget };
      }
      for (const row of exporting.budgetWindows.all(Date.now())) yield { kind: 'budget', key: row.key, used: Number(row.used), endsAt: Number(row.ends_at) };
      for (const record of this.#usageLog.exportRecords(exportPageSize)) yield { kind: 'usage', record };
      for (const record of this.#auditLog.exportRecords(exportPageSize)) yield { kind: 'audit', record };
    } finally {
      if (this.#database.inTransaction) this.#database.exec('COMMIT');
    }
  }

  /** One IMMEDIATE transaction for every entry: a failure, or an entry that will not go in, leaves nothing written. */
  async importEntries(entries: AsyncIterable<StoreEntry>): Promise<void> {
    const importing = prepareImportStatements(this.#database);
    this.#groupCommit.flush();
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      for await (const entry of entries) {
        switch (entry.kind) {
          case 'record':
            this.#recordStatements.set.run(entry.key, entry.value);
            break;
          case 'set':
            this.#statements.addToSet.run(entry.key, JSON.stringify(entry.members));
            break;
          case 'counter':
            importing.counter.run(entry.key, entry.value);
            break;
          case 'window':
            importing.window.run(entry.key, entry.count, entry.resetAt);
            break;
          case 'balance':
            importing.balance.run(entry.account, entry.remain, entry.used);
            break;
          case 'hold':
            importing.hold.run(entry.id, entry.account, entry.units, entry.owner, entry.expiresAt);
            if (entry.budget !== undefined) importing.holdBudget.run(entry.id, JSON.stringify(entry.budget.windows), entry.budget.units);
            break;
          case 'budget':
            importing.budgetWindow.run(entry.key, entry.used, entry.endsAt);
            break;
          case 'usage':
            this.#usageLog.importRecord(entry.record);
            break;
          case 'audit':
            this.#auditLog.importRecord(entry.record);
            break;
        }
      }
      this.#database.exec('COMMIT');
    } catch (error) {
      if (this.#database.inTransaction) this.#database.exec('ROLLBACK');
      throw error;
    }
  }

  async ping(): Promise<void> {
    this.#statements.ping.get();
  }

  async close(): Promise<void> {
    this.#messages.close();
    if (this.#database.open) {
      this.#groupCommit.flush();
      this.#database.close();
    }
  }
}

type Row = Record<string, unknown>;

/** Every statement the primitives run, prepared once per connection. */
function prepareStatements(database: Database.Database) {
  return {
    increment: database.prepare(
      'INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value RETURNING value',
    ),
    hitWindow: database.prepare(
      `INSERT INTO windows (key, count, reset_at) VALUES (@key, 1, @now + @window)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= @now THEN @now + @window ELSE reset_at END
       RETURNING count, reset_at`,
    ),
    sweepWindows: database.prepare('DELETE FROM windows WHERE key IN (SELECT key FROM windows WHERE reset_at <= @now LIMIT @limit)'),
    sweepBudgetWindows: database.prepare('DELETE FROM budget_windows WHERE key IN (SELECT key FROM budget_windows WHERE ends_at <= @now LIMIT @limit)'),
    budgetWindow: database.prepare('SELECT used FROM budget_windows WHERE key = ?'),
    readBudgetWindows: database.prepare('SELECT key, used FROM budget_windows WHERE key IN (SELECT value FROM json_each(?))'),
    addToBudgetWindow: database.prepare(
      'INSERT INTO budget_windows (key, used, ends_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET used = used + excluded.used RETURNING used',
    ),
    correctBudgetWindow: database.prepare('UPDATE budget_windows SET used = max(0, used + ?) WHERE key = ?'),
    insertHoldBudget: database.prepare('INSERT INTO hold_budgets (id, windows, units) VALUES (?, ?, ?)'),
    takeHoldBudget: database.prepare('DELETE FROM hold_budgets WHERE id = ? RETURNING windows, units'),
    rateBucket: database.prepare('SELECT full_at, returned FROM rate_buckets WHERE key = ?'),
    writeRateBucket: database.prepare(
      'INSERT INTO rate_buckets (key, full_at, returned) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET full_at = excluded.full_at, returned = excluded.returned',
    ),
    addToSet: database.prepare('INSERT OR IGNORE INTO set_members (set_key, member) SELECT ?, value FROM json_each(?)'),
    removeFromSet: database.prepare('DELETE FROM set_members WHERE set_key = ? AND member IN (SELECT value FROM json_each(?))'),
    setMembers: database.prepare('SELECT member FROM set_members WHERE set_key = ?'),
    readBalances: database.prepare('SELECT account, remain, used FROM balances WHERE account IN (SELECT value FROM json_each(?))'),
    writeRemaining: database.prepare(
      'INSERT INTO balances (account, remain, used) VALUES (?, ?, 0) ON CONFLICT (account) DO UPDATE SET remain = excluded.remain',
    ),
    balance: database.prepare('SELECT remain, used FROM balances WHERE account = ?'),
    reserve: database.prepare('UPDATE balances SET remain = remain - @amount WHERE account = @account AND remain >= @amount RETURNING remain'),
    applySettlement: database.prepare('UPDATE balances SET remain = remain + ?, used = used + ? WHERE account = ? RETURNING remain, used'),
    addUsed: database.prepare('UPDATE balances SET used = used + ? WHERE account = ?'),
    deleteBalance: database.prepare('DELETE FROM balances WHERE account = ?'),
    insertHold: database.prepare('INSERT INTO holds (id, account, units, owner, expires_at) VALUES (?, ?, ?, ?, ?)'),
    deleteHold: database.prepare('DELETE FROM holds WHERE id = ?'),
    detachHold: database.prepare('UPDATE holds SET expires_at = NULL WHERE id = ?'),
    renewHolds: database.prepare('UPDATE holds SET expires_at = ? WHERE expires_at IS NOT NULL AND id IN (SELECT value FROM json_each(?))'),
    expiredHolds: database.prepare('SELECT id, account, units FROM holds WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?'),
    removeExpiredSlots: database.prepare('DELETE FROM slots WHERE key = ? AND expires_at <= ?'),
    countSlots: database.prepare('SELECT count(*) AS count FROM slots WHERE key = ?'),
    insertSlot: database.prepare('INSERT OR REPLACE INTO slots (key, id, expires_at) VALUES (?, ?, ?)'),
    releaseSlot: database.prepare('DELETE FROM slots WHERE id = ?'),
    renewSlots: database.prepare('UPDATE slots SET expires_at = ? WHERE id IN (SELECT value FROM json_each(?))'),
    ping: database.prepare('SELECT 1'),
  };
}

type RecordRow = { key: string; value: string };

/** What {@link SqliteStoreBackend.exportEntries} reads, prepared when an export starts. */
function prepareExportStatements(database: Database.Database) {
  return {
    records: database.prepare<[string, number], RecordRow>('SELECT key, value FROM records WHERE key > ? ORDER BY key LIMIT ?'),
    setKeys: database.prepare<[string, number], string>('SELECT DISTINCT set_key FROM set_members WHERE set_key > ? ORDER BY set_key LIMIT ?').pluck(),
    setMembers: database.prepare<[string], string>('SELECT member FROM set_members WHERE set_key = ?').pluck(),
    counters: database.prepare<[], { key: string; value: number | bigint }>('SELECT key, value FROM counters'),
    windows: database.prepare<[number], { key: string; count: number; reset_at: number }>('SELECT key, count, reset_at FROM windows WHERE reset_at > ?'),
    balances: database.prepare<[string, number], { account: string; remain: number; used: number }>(
      'SELECT account, remain, used FROM balances WHERE account > ? ORDER BY account LIMIT ?',
    ),
    holds: database.prepare<[], { id: string; account: string; units: number; owner: string; expires_at: number | null; windows: string | null; budget_units: number | null }>(
      'SELECT holds.id, account, holds.units, owner, expires_at, hold_budgets.windows, hold_budgets.units AS budget_units FROM holds LEFT JOIN hold_budgets ON hold_budgets.id = holds.id',
    ),
    budgetWindows: database.prepare<[number], { key: string; used: number; ends_at: number }>('SELECT key, used, ends_at FROM budget_windows WHERE ends_at > ?'),
  };
}

/** What {@link SqliteStoreBackend.importEntries} writes besides records and sets, prepared when an import starts. */
function prepareImportStatements(database: Database.Database) {
  return {
    counter: database.prepare<[string, number]>('INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    window: database.prepare<[string, number, number]>(
      'INSERT INTO windows (key, count, reset_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at',
    ),
    balance: database.prepare<[string, number, number]>(
      'INSERT INTO balances (account, remain, used) VALUES (?, ?, ?) ON CONFLICT (account) DO UPDATE SET remain = excluded.remain, used = excluded.used',
    ),
    hold: database.prepare<[string, string, number, string, number | null]>('INSERT OR REPLACE INTO holds (id, account, units, owner, expires_at) VALUES (?, ?, ?, ?, ?)'),
    holdBudget: database.prepare<[string, string, number]>('INSERT OR REPLACE INTO hold_budgets (id, windows, units) VALUES (?, ?, ?)'),
    budgetWindow: database.prepare<[string, number, number]>(
      'INSERT INTO budget_windows (key, used, ends_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET used = excluded.used, ends_at = excluded.ends_at',
    ),
  };
}
