import { userInfo } from 'node:os';
import Keyv from 'keyv';
import pg from 'pg';
import { defaultPostgresSchema } from '../config/config-schema.js';
import { PostgresGroupCommit } from './postgres-group-commit.js';
import { databaseNow, inTransaction, migratePostgresSchema, quotedSchema } from './postgres-migrations.js';
import { PostgresKeyvStore } from './postgres-keyv-store.js';
import { PostgresNotifications } from './postgres-notifications.js';
import { PostgresUsageLogStore } from './postgres-usage-log-store.js';
import { PostgresAuditLogStore } from './postgres-audit-log-store.js';
import { assertBudgetClaim } from './budget-claim.js';
import { assertQuotaUnits } from './quota-units.js';
import { assertRateCorrection, assertRateDraws, rateFitToleranceMilliseconds } from './rate-bucket.js';
import type { BudgetClaim, BudgetWindowUsage, HoldLease, SettleOptions, QuotaBalance, QuotaReservation, QuotaSettlement, RateCorrection, RateDraw, RateDrawResult, ReturnedHold, SlotAcquisition, SlotClaim, SlotLease, StoreBackend, StoreEntry, StoreWrites, WindowHit } from './store-backend.js';
import { recordExpiry } from './store-entries.js';
import type { UsageRecord } from '../usage/usage-record.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { StartupError } from '../errors/startup-error.js';
import { recordFormat } from './record-serializer.js';

/** Connections each gateway process opens at most for queries (LISTEN has one more of its own). */
const poolSize = 10;

/** How many rows {@link PostgresStoreBackend.exportEntries} reads, and {@link PostgresStoreBackend.importEntries} writes, per statement. */
const copyBatchSize = 500;

/** How often each process removes expired records. */
const expirySweepMilliseconds = 60_000;

/**
 * How long past its expiry a record is kept: keyv decides expiry on the gateway's clock, the
 * sweep on the database's, and a gateway whose clock is behind must not lose a record it still
 * holds valid.
 */
const expiryGraceMilliseconds = 60_000;

/**
 * The durable store for several machines: every gateway process, on one machine or many,
 * shares one PostgreSQL database, in a schema of its own (so one database can hold several
 * deployments, and each test run its own). keyv's records live in the schema's `records`
 * table through {@link PostgresKeyvStore}; the primitives in tables beside it
 * (core/store/postgres-migrations.ts), which are created or migrated when the backend opens.
 *
 * Each primitive is one statement, atomic on its own: a reservation is an UPDATE guarded by
 * `remain >= amount`, so no interleaving overdraws; a settlement reads, decides and writes one
 * locked row in one statement, so it takes effect exactly once; a rate draw or correction is one
 * call of a PL/pgSQL function on the database's clock. The balance primitives every request
 * runs (reserve, settle, addUsed, writeRemaining) are group-committed
 * ({@link PostgresGroupCommit}): the calls that arrive while one batch commits share the next
 * transaction and its WAL flush. Nothing is acknowledged before its commit. Queries fail at once while the database is unreachable (the pool opens a fresh
 * connection for each query after a lost one), so quota fails closed and `/readyz` can tell.
 * Token invalidations travel by LISTEN/NOTIFY ({@link PostgresNotifications}).
 */
export class PostgresStoreBackend implements StoreBackend {
  readonly driver = 'postgres';
  readonly #pool: pg.Pool;
  readonly #notifications: PostgresNotifications;
  readonly #keyvs = new Map<string, Keyv>();
  readonly #records: string;
  readonly #sql: ReturnType<typeof statements>;
  readonly #groupCommit: PostgresGroupCommit;
  readonly #sweep: NodeJS.Timeout;
  readonly #usageLog: PostgresUsageLogStore;
  readonly #auditLog: PostgresAuditLogStore;
  #closed = false;

  private constructor(pool: pg.Pool, notifications: PostgresNotifications, schema: string) {
    this.#pool = pool;
    this.#notifications = notifications;
    this.#records = `${quotedSchema(schema)}.records`;
    this.#sql = statements(quotedSchema(schema));
    this.#groupCommit = new PostgresGroupCommit(pool);
    this.#usageLog = new PostgresUsageLogStore(pool, quotedSchema(schema));
    this.#auditLog = new PostgresAuditLogStore(pool, quotedSchema(schema));
    // Records with a TTL (Responses ids, task records) that nobody reads again would stay
    // forever: Redis expires its keys, this table needs a sweep. A failed sweep is tried again
    // at the next.
    this.#sweep = setInterval(() => void this.removeExpiredRecords().catch(() => {}), expirySweepMilliseconds);
    this.#sweep.unref();
  }

  /**
   * Connects to the database at `url` and creates or migrates the tables of `schema`; rejects
   * when the database does not answer within `connectTimeoutMilliseconds` or refuses the
   * migration.
   */
  static async open(url: string, schema = defaultPostgresSchema, connectTimeoutMilliseconds = 5000): Promise<PostgresStoreBackend> {
    // The schema in the application name tells deployments apart in pg_stat_activity.
    const connection: pg.ClientConfig = { connectionString: withDefaultUser(url), connectionTimeoutMillis: connectTimeoutMilliseconds, application_name: applicationName(schema) };
    const pool = new pg.Pool({ ...connection, max: poolSize, keepAlive: true });
    // An idle pooled connection that the server ends (a restart, pg_terminate_backend) emits an
    // error on the pool; the pool drops it and the next query opens a fresh one. Unheard, the
    // event would end the process.
    pool.on('error', () => {});
    try {
      await migratePostgresSchema(pool, schema);
    } catch (error) {
      await pool.end().catch(() => {});
      throw new StartupError(`PostgreSQL did not open the schema "${schema}": ${error instanceof Error ? error.message : String(error)}; check storage.url and that PostgreSQL is running`, { cause: error });
    }
    return new PostgresStoreBackend(pool, new PostgresNotifications(connection, schema), schema);
  }

  keyv<Value>(namespace: string): Keyv<Value> {
    let keyv = this.#keyvs.get(namespace);
    if (keyv === undefined) {
      keyv = new Keyv({ store: new PostgresKeyvStore(this.#pool, this.#records), namespace, throwOnErrors: true, emitErrors: false, ...recordFormat });
      this.#keyvs.set(namespace, keyv);
    }
    return keyv as Keyv<Value>;
  }

  usageLog(): PostgresUsageLogStore {
    return this.#usageLog;
  }

  auditLog(): PostgresAuditLogStore {
    return this.#auditLog;
  }

  async writeTogether(writes: StoreWrites): Promise<void> {
    // One statement: its data-modifying parts commit together or not at all. A statement may
    // not update one row twice, so the last write for a key wins here, as it would one by one.
    const records = new Map<string, string>();
    for (const { namespace, key, value } of writes.records ?? []) {
      const keyv = this.keyv(namespace);
      records.set(keyv._getKeyPrefix(key), (await keyv.serializeData({ value })) as string);
    }
    const setKeys: string[] = [];
    const setMembers: string[] = [];
    for (const { key, members } of writes.setAdditions ?? []) {
      for (const member of members) {
        setKeys.push(key);
        setMembers.push(member);
      }
    }
    const remaining = new Map((writes.remaining ?? []).map(({ account, remain }) => [account, remain]));
    await this.#pool.query(this.#sql.writeTogether, [[...records.keys()], [...records.values()], setKeys, setMembers, [...remaining.keys()], [...remaining.values()]]);
  }

  async increment(key: string, by = 1): Promise<number> {
    const { rows } = await this.#pool.query<{ value: string }>(this.#sql.increment, [key, by]);
    return Number(rows[0]?.value);
  }

  async hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit> {
    const { rows } = await this.#pool.query<{ count: string; reset_in: number }>(this.#sql.hitWindow, [key, windowMilliseconds]);
    const row = rows[0] as { count: string; reset_in: number };
    return { count: Number(row.count), resetInMilliseconds: Math.max(0, row.reset_in) };
  }

  async sweepWindows(limit: number): Promise<number> {
    const removed = (await this.#pool.query(this.#sql.sweepWindows, [limit])).rowCount ?? 0;
    if (removed >= limit) return removed;
    return removed + ((await this.#pool.query(this.#sql.sweepBudgetWindows, [limit - removed])).rowCount ?? 0);
  }

  async drawRates(draws: readonly RateDraw[]): Promise<RateDrawResult> {
    assertRateDraws(draws);
    if (draws.length === 0) return { granted: true, marks: [] };
    const { rows } = await this.#pool.query<{ reply: number[] }>(this.#sql.drawRates, [
      draws.map((draw) => draw.key),
      draws.map((draw) => draw.amount),
      draws.map((draw) => draw.capacity),
      draws.map((draw) => draw.windowMilliseconds),
      rateFitToleranceMilliseconds,
    ]);
    const reply = (rows[0] as { reply: number[] }).reply;
    if (reply[0] !== 1) return { granted: false, refused: Number(reply[1]), retryInMilliseconds: Number(reply[2]) };
    return { granted: true, marks: draws.map((draw, index) => ({ amount: draw.amount, fullAt: Number(reply[1 + 2 * index]), returned: Number(reply[2 + 2 * index]) })) };
  }

  async correctRate(correction: RateCorrection): Promise<void> {
    assertRateCorrection(correction);
    const { key, delta, capacity, windowMilliseconds, mark } = correction;
    await this.#pool.query(this.#sql.correctRate, [key, delta, capacity, windowMilliseconds, mark.fullAt, mark.returned, mark.amount]);
  }

  async addToSet(key: string, members: readonly string[]): Promise<void> {
    if (members.length > 0) await this.#pool.query(this.#sql.addToSet, [key, [...members]]);
  }

  async removeFromSet(key: string, members: readonly string[]): Promise<number> {
    if (members.length === 0) return 0;
    return (await this.#pool.query(this.#sql.removeFromSet, [key, [...members]])).rowCount ?? 0;
  }

  async setMembers(key: string): Promise<string[]> {
    return (await this.#pool.query<{ member: string }>(this.#sql.setMembers, [key])).rows.map((row) => row.member);
  }

  async readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>> {
    const { rows } = await this.#pool.query<{ account: string; remain: string; used: string }>(this.#sql.readBalances, [[...accounts]]);
    return new Map(rows.map((row) => [row.account, { remain: Number(row.remain), used: Number(row.used) }]));
  }

  async writeRemaining(account: string, remain: number): Promise<void> {
    await this.#groupCommit.run(account, this.#sql.writeRemaining, [account, remain]);
  }

  async reserve(account: string, amount: number, lease?: HoldLease, budget?: BudgetClaim): Promise<QuotaReservation> {
    assertQuotaUnits('amount', amount);
    assertBudgetClaim(budget, lease);
    if (budget !== undefined && budget.windows.length > 0) return this.#reserveInBudget(account, amount, lease as HoldLease, budget);
    // The group commit writes values in as literals, so "no hold" is an empty id, not NULL.
    const { rows } = await this.#groupCommit.run<{ granted: boolean; remain: string }>(account, this.#sql.reserve, [
      account,
      amount,
      lease?.id ?? '',
      lease?.owner ?? '',
      lease?.leaseMilliseconds ?? 0,
    ]);
    const row = rows[0];
    return row === undefined ? { granted: false, remain: 0 } : { granted: row.granted, remain: Number(row.remain) };
  }

  /**
   * A reservation counted in budget windows: one statement in a transaction of its own, not
   * the group commit, since it locks windows besides the balance (see the migration).
   */
  async #reserveInBudget(account: string, amount: number, lease: HoldLease, budget: BudgetClaim): Promise<QuotaReservation> {
    const { rows } = await this.#pool.query<{ granted: boolean; remain: string; refused: number; refused_used: string; counts: string[] | null }>(this.#sql.reserveInBudget, [
      account,
      amount,
      lease.id,
      lease.owner,
      lease.leaseMilliseconds,
      budget.unlimited,
      budget.windows.map((window) => window.key),
      budget.windows.map((window) => window.limit),
      budget.windows.map((window) => window.hard),
      budget.windows.map((window) => window.endsAt),
    ]);
    const row = rows[0] as { granted: boolean; remain: string; refused: number; refused_used: string; counts: string[] | null };
    if (row.granted) return { granted: true, remain: Number(row.remain), budget: { used: (row.counts ?? []).map(Number) } };
    return row.refused < 0 ? { granted: false, remain: Number(row.remain) } : { granted: false, remain: Number(row.remain), budget: { refused: row.refused, used: Number(row.refused_used) } };
  }

  async settle(account: string, reserved: number, actual: number, holdId?: string, options: SettleOptions = {}): Promise<QuotaSettlement> {
    assertQuotaUnits('reserved', reserved);
    assertQuotaUnits('actual', actual);
    if (options.budget === true && holdId !== undefined) {
      const { rows } = await this.#pool.query<{ remain: string; used: string; charged: string; held: boolean }>(this.#sql.settleInBudget, [account, reserved, actual, holdId, options.unlimited === true]);
      const row = rows[0] as { remain: string; used: string; charged: string; held: boolean };
      return { remain: Number(row.remain), used: Number(row.used), charged: Number(row.charged), held: row.held };
    }
    if (options.unlimited === true) {
      await this.addUsed(account, actual);
      const balance = (await this.readBalances([account])).get(account);
      return { remain: balance?.remain ?? 0, used: balance?.used ?? 0, charged: actual, held: true };
    }
    const { rows } = await this.#groupCommit.run<{ remain: string; used: string; charged: string; held: boolean }>(account, this.#sql.settle, [account, reserved, actual, holdId ?? '']);
    const row = rows[0];
    if (row === undefined) return { remain: 0, used: 0, charged: 0, held: true };
    return { remain: Number(row.remain), used: Number(row.used), charged: Number(row.charged), held: row.held };
  }

  async readBudgetWindows(keys: readonly string[]): Promise<BudgetWindowUsage> {
    if (keys.length === 0) return new Map();
    const { rows } = await this.#pool.query<{ key: string; used: string }>(this.#sql.readBudgetWindows, [[...keys]]);
    return new Map(rows.map((row) => [row.key, Number(row.used)]));
  }

  async detachHold(holdId: string): Promise<boolean> {
    return ((await this.#pool.query(this.#sql.detachHold, [holdId])).rowCount ?? 0) > 0;
  }

  async renewLeases(leases: { holds: readonly string[]; slots: readonly SlotLease[] }, leaseMilliseconds: number): Promise<void> {
    if (leases.holds.length === 0 && leases.slots.length === 0) return;
    await this.#pool.query(this.#sql.renewLeases, [[...leases.holds], leases.slots.map((slot) => slot.id), leaseMilliseconds]);
  }

  /**
   * Reads the expired holds, then returns each in a statement of its own through the group
   * commit (which locks balance rows in one order for every process): the statement removes
   * the hold only if it is still there and expired, and gives back only what it removed.
   */
  async sweepHolds(limit: number): Promise<ReturnedHold[]> {
    const { rows } = await this.#pool.query<{ id: string; account: string; units: string; budgeted: boolean }>(this.#sql.expiredHolds, [limit]);
    const swept = await Promise.all(
      rows.map(async ({ id, account, units, budgeted }) => {
        if (budgeted) {
          // Gives back to the windows too, outside the group commit like its reservation.
          const { rows: gone } = await this.#pool.query(this.#sql.sweepInBudget, [account, id]);
          return gone.length === 0 ? undefined : { id, account, units: Number(units) };
        }
        const { rows: gone } = await this.#groupCommit.run<{ units: string }>(account, this.#sql.sweepHold, [account, id]);
        return gone[0] === undefined ? undefined : { id, account, units: Number(gone[0].units) };
      }),
    );
    return swept.filter((hold): hold is ReturnedHold => hold !== undefined);
  }

  async acquireSlots(claims: readonly SlotClaim[], lease: HoldLease): Promise<SlotAcquisition> {
    if (claims.length === 0) return { granted: true };
    const { rows } = await this.#pool.query<{ refused: number }>(this.#sql.acquireSlots, [
      claims.map((claim) => claim.key),
      claims.map((claim) => claim.limit),
      lease.id,
      lease.leaseMilliseconds,
    ]);
    const refused = Number(rows[0]?.refused);
    return refused < 0 ? { granted: true } : { granted: false, refused };
  }

  async releaseSlot(slot: SlotLease): Promise<void> {
    await this.#pool.query(this.#sql.releaseSlot, [slot.id]);
  }

  async addUsed(account: string, amount: number): Promise<void> {
    assertQuotaUnits('amount', amount);
    await this.#groupCommit.run(account, this.#sql.addUsed, [account, amount]);
  }

  async deleteBalance(account: string): Promise<void> {
    await this.#pool.query(this.#sql.deleteBalance, [account]);
  }

  /** Removes records that expired more than `graceMilliseconds` ago; returns how many. */
  async removeExpiredRecords(graceMilliseconds = expiryGraceMilliseconds): Promise<number> {
    return (await this.#pool.query(this.#sql.removeExpiredRecords, [graceMilliseconds])).rowCount ?? 0;
  }

  /**
   * Reads in one REPEATABLE READ transaction on one connection, a page at a time: every page
   * comes from the same snapshot, whatever is written meanwhile. The transaction ends when the
   * iteration does, also when it stops early.
   */
  async *exportEntries(): AsyncGenerator<StoreEntry> {
    const client = await this.#pool.connect();
    const sql = this.#sql.exporting;
    let failed = false;
    let committed = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      for (let after = ''; ; ) {
        const { rows } = await client.query<{ key: string; value: string }>(sql.records, [after, copyBatchSize]);
        for (const row of rows) yield { kind: 'record', key: row.key, value: row.value };
        if (rows.length < copyBatchSize) break;
        after = (rows[rows.length - 1] as { key: string }).key;
      }
      for (let after = ''; ; ) {
        const { rows } = await client.query<{ set_key: string; members: string[] }>(sql.sets, [after, copyBatchSize]);
        for (const row of rows) yield { kind: 'set', key: row.set_key, members: row.members };
        if (rows.length < copyBatchSize) break;
        after = (rows[rows.length - 1] as { set_key: string }).set_key;
      }
      for (const row of (await client.query<{ key: string; value: string }>(sql.counters)).rows) yield { kind: 'counter', key: row.key, value: Number(row.value) };
      for (const row of (await client.query<{ key: string; count: string; reset_at: number }>(sql.windows)).rows) {
        yield { kind: 'window', key: row.key, count: Number(row.count), resetAt: row.reset_at };
      }
      for (let after = ''; ; ) {
        const { rows } = await client.query<{ account: string; remain: string; used: string }>(sql.balances, [after, copyBatchSize]);
        for (const row of rows) yield { kind: 'balance', account: row.account, remain: Number(row.remain), used: Number(row.used) };
        if (rows.length < copyBatchSize) break;
        after = (rows[rows.length - 1] as { account: string }).account;
      }
      for (const row of (await client.query<{ id: string; account: string; units: string; owner: string; expires_at: number | null; windows: string[] | null; budget_units: string | null }>(sql.holds)).rows) {
        yield { kind: 'hold', id: row.id, account: row.account, units: Number(row.units), owner: row.owner, expiresAt: row.expires_at, ...(row.windows === null ? {} : { budget: { windows: row.windows, units: Number(row.budget_units) } }) };
      }
      for (const row of (await client.query<{ key: string; used: string; ends_at: string }>(sql.budgetWindows)).rows) {
        yield { kind: 'budget', key: row.key, used: Number(row.used), endsAt: Number(row.ends_at) };
      }
      for (let after = 0; ; ) {
        const records = await this.#usageLog.exportPage(client, after, copyBatchSize);
        for (const record of records) yield { kind: 'usage', record };
        if (records.length < copyBatchSize) break;
        after = (records.at(-1) as UsageRecord).id;
      }
      for (let after = 0; ; ) {
        const records = await this.#auditLog.exportPage(client, after, copyBatchSize);
        for (const record of records) yield { kind: 'audit', record };
        if (records.length < copyBatchSize) break;
        after = (records.at(-1) as AuditRecord).id;
      }
      await client.query('COMMIT');
      committed = true;
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // Stopped early: the read-only transaction is rolled back, which loses nothing. A failed
      // connection is not given back to the pool.
      if (!failed && !committed) await client.query('ROLLBACK').catch(() => {});
      client.release(failed);
    }
  }

  /**
   * One transaction for every entry, written in batches of {@link copyBatchSize} per statement:
   * a failure leaves nothing written. A record keeps its expiry (`expires_at`).
   */
  async importEntries(entries: AsyncIterable<StoreEntry>): Promise<void> {
    const sql = this.#sql.importing;
    await inTransaction(this.#pool, async (client) => {
      const batch = { records: [[], [], []] as unknown[][], sets: [[], []] as unknown[][], counters: [[], []] as unknown[][], windows: [[], [], []] as unknown[][], balances: [[], [], []] as unknown[][], holds: [[], [], [], [], []] as unknown[][], holdBudgets: [[], [], []] as unknown[][], budgetWindows: [[], [], []] as unknown[][] };
      const usage: UsageRecord[] = [];
      const audit: AuditRecord[] = [];
      let size = 0;
      const flush = async () => {
        for (const [name, columns] of Object.entries(batch) as Array<[keyof typeof batch, unknown[][]]>) {
          if ((columns[0] as unknown[]).length === 0) continue;
          await client.query(sql[name], columns);
          for (const column of columns) column.length = 0;
        }
        await this.#usageLog.importRecords(client, usage.splice(0));
        await this.#auditLog.importRecords(client, audit.splice(0));
        size = 0;
      };
      for await (const entry of entries) {
        if (entry.kind === 'record') push(batch.records, entry.key, entry.value, recordExpiry(entry) ?? null);
        else if (entry.kind === 'set') for (const member of entry.members) push(batch.sets, entry.key, member);
        else if (entry.kind === 'counter') push(batch.counters, entry.key, entry.value);
        else if (entry.kind === 'window') push(batch.windows, entry.key, entry.count, entry.resetAt);
        else if (entry.kind === 'balance') push(batch.balances, entry.account, entry.remain, entry.used);
        else if (entry.kind === 'hold') {
          push(batch.holds, entry.id, entry.account, entry.units, entry.owner, entry.expiresAt);
          if (entry.budget !== undefined) push(batch.holdBudgets, entry.id, entry.budget.windows.join('\n'), entry.budget.units);
        } else if (entry.kind === 'budget') push(batch.budgetWindows, entry.key, entry.used, entry.endsAt);
        else if (entry.kind === 'usage') usage.push(entry.record);
        else audit.push(entry.record);
        size += 1;
        if (size >= copyBatchSize) await flush();
      }
      await flush();
      await this.#usageLog.continueIds(client);
      await this.#auditLog.continueIds(client);
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#pool.query('SELECT pg_notify($1, $2)', this.#notifications.notification(channel, message));
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    await this.#notifications.subscribe(channel, handler);
  }

  /**
   * Asks the database through the pool. Once something subscribed, the listening connection
   * must be up too: without it, token changes made elsewhere would not arrive.
   */
  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
    if (this.#notifications.subscribed && !this.#notifications.listening) throw new Error('the PostgreSQL connection that listens for token changes is down');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweep);
    await this.#groupCommit.settled();
    await this.#notifications.close();
    await this.#pool.end();
  }
}

/** The `application_name` every connection of a gateway on `schema` carries in `pg_stat_activity`. */
function applicationName(schema: string): string {
  return `model-gateway/${schema}`;
}

/**
 * How many connections gateways on `schema` have open to the database at `url` (by their
 * `application_name`), asked on a connection of its own that is not counted: a running gateway
 * always has at least its listening one.
 */
export async function countGatewayConnections(url: string, schema = defaultPostgresSchema, connectTimeoutMilliseconds = 5000): Promise<number> {
  const client = new pg.Client({ connectionString: withDefaultUser(url), connectionTimeoutMillis: connectTimeoutMilliseconds, application_name: 'model-gateway/check' });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [applicationName(schema)],
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * `url` with the operating system's user name when it names no user and neither `PGUSER` nor
 * `USER` does, as libpq (psql) defaults: `pg` would otherwise send no user at all, which the
 * server refuses (a service started without `USER` in its environment).
 */
export function withDefaultUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.searchParams.has('user') || process.env.PGUSER || process.env.USER) return url;
  parsed.username = encodeURIComponent(userInfo().username);
  return parsed.href;
}

/** Appends one row to a batch of columns. */
function push(columns: unknown[][], ...values: unknown[]): void {
  values.forEach((value, index) => (columns[index] as unknown[]).push(value));
}

/** Every statement the primitives run, on the tables of the quoted schema `schema`. */
function statements(schema: string) {
  return {
    exporting: {
      records: `SELECT key, value FROM ${schema}.records WHERE key > $1 ORDER BY key LIMIT $2`,
      sets: `SELECT set_key, array_agg(member) AS members FROM ${schema}.set_members WHERE set_key > $1 GROUP BY set_key ORDER BY set_key LIMIT $2`,
      counters: `SELECT key, value FROM ${schema}.counters`,
      windows: `SELECT key, count, reset_at FROM ${schema}.windows WHERE reset_at > ${databaseNow}`,
      balances: `SELECT account, remain, used FROM ${schema}.balances WHERE account > $1 ORDER BY account LIMIT $2`,
      holds: `
        SELECT hold.id, hold.account, hold.units, hold.owner, hold.expires_at, budget.windows, budget.units AS budget_units
        FROM ${schema}.holds AS hold LEFT JOIN ${schema}.hold_budgets AS budget ON budget.id = hold.id`,
      budgetWindows: `SELECT key, used, ends_at FROM ${schema}.budget_windows WHERE ends_at > ${databaseNow}`,
    },
    // One row per key in each batch: an importer gives each key once.
    importing: {
      records: `
        INSERT INTO ${schema}.records (key, value, expires_at) SELECT * FROM unnest($1::text[], $2::text[], $3::double precision[])
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      sets: `INSERT INTO ${schema}.set_members (set_key, member) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
      counters: `
        INSERT INTO ${schema}.counters (key, value) SELECT * FROM unnest($1::text[], $2::bigint[])
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      windows: `
        INSERT INTO ${schema}.windows (key, count, reset_at) SELECT * FROM unnest($1::text[], $2::bigint[], $3::double precision[])
        ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at`,
      balances: `
        INSERT INTO ${schema}.balances (account, remain, used) SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
        ON CONFLICT (account) DO UPDATE SET remain = excluded.remain, used = excluded.used`,
      holds: `
        INSERT INTO ${schema}.holds (id, account, units, owner, expires_at)
        SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::double precision[])
        ON CONFLICT (id) DO UPDATE SET account = excluded.account, units = excluded.units, owner = excluded.owner, expires_at = excluded.expires_at`,
      holdBudgets: `
        INSERT INTO ${schema}.hold_budgets (id, windows, units)
        SELECT id, string_to_array(windows, E'\\n'), units FROM unnest($1::text[], $2::text[], $3::bigint[]) AS imported (id, windows, units)
        ON CONFLICT (id) DO UPDATE SET windows = excluded.windows, units = excluded.units`,
      budgetWindows: `
        INSERT INTO ${schema}.budget_windows (key, used, ends_at) SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
        ON CONFLICT (key) DO UPDATE SET used = excluded.used, ends_at = excluded.ends_at`,
    },
    writeTogether: `
      WITH written_records AS (
        INSERT INTO ${schema}.records (key, value) SELECT * FROM unnest($1::text[], $2::text[])
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = NULL
      ), added_members AS (
        INSERT INTO ${schema}.set_members (set_key, member) SELECT * FROM unnest($3::text[], $4::text[])
        ON CONFLICT DO NOTHING
      ), written_balances AS (
        INSERT INTO ${schema}.balances (account, remain, used) SELECT account, remain, 0 FROM unnest($5::text[], $6::bigint[]) AS written (account, remain)
        ON CONFLICT (account) DO UPDATE SET remain = excluded.remain
      )
      SELECT 1`,
    increment: `
      INSERT INTO ${schema}.counters AS counter (key, value) VALUES ($1, $2)
      ON CONFLICT (key) DO UPDATE SET value = counter.value + excluded.value
      RETURNING value`,
    // The window starts with its first hit; `excluded.reset_at - $2` is this hit's time.
    hitWindow: `
      INSERT INTO ${schema}.windows AS hit (key, count, reset_at) VALUES ($1, 1, ${databaseNow} + $2::double precision)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN hit.reset_at <= excluded.reset_at - $2::double precision THEN 1 ELSE hit.count + 1 END,
        reset_at = CASE WHEN hit.reset_at <= excluded.reset_at - $2::double precision THEN excluded.reset_at ELSE hit.reset_at END
      RETURNING count, reset_at - ${databaseNow} AS reset_in`,
    // SKIP LOCKED: a window another sweeper or a hit holds right now is left to the next
    // round. The outer condition is checked again on the row's newest version, so a window a
    // hit started anew meanwhile is kept.
    sweepWindows: `
      DELETE FROM ${schema}.windows
      WHERE key IN (SELECT key FROM ${schema}.windows WHERE reset_at <= ${databaseNow} LIMIT $1 FOR UPDATE SKIP LOCKED)
        AND reset_at <= ${databaseNow}`,
    drawRates: `SELECT ${schema}.draw_rates($1::text[], $2::double precision[], $3::double precision[], $4::double precision[], $5::double precision) AS reply`,
    correctRate: `SELECT ${schema}.correct_rate($1, $2, $3, $4, $5, $6, $7)`,
    addToSet: `INSERT INTO ${schema}.set_members (set_key, member) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
    removeFromSet: `DELETE FROM ${schema}.set_members WHERE set_key = $1 AND member = ANY ($2::text[])`,
    setMembers: `SELECT member FROM ${schema}.set_members WHERE set_key = $1`,
    readBalances: `SELECT account, remain, used FROM ${schema}.balances WHERE account = ANY ($1::text[])`,
    writeRemaining: `
      INSERT INTO ${schema}.balances (account, remain, used) VALUES ($1, $2, 0)
      ON CONFLICT (account) DO UPDATE SET remain = excluded.remain`,
    // The guard is the WHERE: an UPDATE re-checks it on the newest version of a row another
    // transaction changed meanwhile, so concurrent reservations never take more than is there.
    // Refused, the row is read only to tell the caller what is left.
    reserve: `
      WITH taken AS (
        UPDATE ${schema}.balances SET remain = remain - $2::bigint WHERE account = $1 AND remain >= $2::bigint RETURNING remain
      ), held AS (
        INSERT INTO ${schema}.holds (id, account, units, owner, expires_at)
        SELECT $3::text, $1, $2::bigint, $4::text, ${databaseNow} + $5::double precision FROM taken WHERE $3::text <> ''
      )
      SELECT true AS granted, remain FROM taken
      UNION ALL
      SELECT false AS granted, remain FROM ${schema}.balances WHERE account = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
    // FOR UPDATE locks the row and reads its newest version; the charge is decided on that
    // version and written in the same statement, so no other settlement comes between. The
    // hold ($4, '' for none) is removed in the same statement: a hold another transaction
    // removed first (a sweep) is gone here, and then nothing is given back.
    settle: `
      WITH gone AS (
        DELETE FROM ${schema}.holds WHERE $4::text <> '' AND id = $4::text RETURNING 1
      ), locked AS (
        SELECT remain, used, ($4::text = '' OR EXISTS (SELECT 1 FROM gone)) AS held
        FROM ${schema}.balances WHERE account = $1 FOR UPDATE
      ), decided AS (
        SELECT remain, used, held, CASE WHEN held THEN $2::bigint ELSE 0 END AS given FROM locked
      ), charging AS (
        SELECT remain, used, held, given, greatest(0, least($3::bigint, remain + given)) AS charged FROM decided
      )
      UPDATE ${schema}.balances AS balance
      SET remain = charging.remain + charging.given - charging.charged, used = charging.used + charging.charged
      FROM charging WHERE balance.account = $1
      RETURNING balance.remain, balance.used, charging.charged, charging.held`,
    detachHold: `UPDATE ${schema}.holds SET expires_at = NULL WHERE id = $1`,
    // SKIP LOCKED: a hold or slot being settled or swept right now is passed over rather than
    // waited for, so a renewal never waits on (or deadlocks with) a request's own statements.
    renewLeases: `
      WITH renewed_holds AS (
        UPDATE ${schema}.holds SET expires_at = ${databaseNow} + $3::double precision
        WHERE id IN (SELECT id FROM ${schema}.holds WHERE id = ANY ($1::text[]) AND expires_at IS NOT NULL FOR UPDATE SKIP LOCKED)
      ), renewed_slots AS (
        UPDATE ${schema}.slots SET expires_at = ${databaseNow} + $3::double precision
        WHERE (key, id) IN (SELECT key, id FROM ${schema}.slots WHERE id = ANY ($2::text[]) FOR UPDATE SKIP LOCKED)
      )
      SELECT 1`,
    expiredHolds: `
      SELECT hold.id, hold.account, hold.units, budget.id IS NOT NULL AS budgeted FROM ${schema}.holds AS hold
      LEFT JOIN ${schema}.hold_budgets AS budget ON budget.id = hold.id
      WHERE hold.expires_at <= ${databaseNow} ORDER BY hold.expires_at LIMIT $1`,
    reserveInBudget: `SELECT * FROM ${schema}.reserve_in_budget($1, $2::bigint, $3, $4, $5::double precision, $6::boolean, $7::text[], $8::bigint[], $9::boolean[], $10::bigint[])`,
    settleInBudget: `SELECT * FROM ${schema}.settle_in_budget($1, $2::bigint, $3::bigint, $4, $5::boolean, false)`,
    sweepInBudget: `SELECT * FROM ${schema}.settle_in_budget($1, 0, 0, $2, false, true)`,
    readBudgetWindows: `SELECT key, used FROM ${schema}.budget_windows WHERE key = ANY ($1::text[])`,
    sweepBudgetWindows: `DELETE FROM ${schema}.budget_windows WHERE key IN (SELECT key FROM ${schema}.budget_windows WHERE ends_at <= ${databaseNow} LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    sweepHold: `
      WITH gone AS (
        DELETE FROM ${schema}.holds WHERE id = $2 AND expires_at <= ${databaseNow} RETURNING units
      ), given AS (
        UPDATE ${schema}.balances SET remain = remain + (SELECT units FROM gone) WHERE account = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING 1
      )
      SELECT units FROM gone`,
    acquireSlots: `SELECT ${schema}.acquire_slots($1::text[], $2::bigint[], $3, $4::double precision) AS refused`,
    releaseSlot: `DELETE FROM ${schema}.slots WHERE id = $1`,
    addUsed: `UPDATE ${schema}.balances SET used = used + $2::bigint WHERE account = $1`,
    deleteBalance: `DELETE FROM ${schema}.balances WHERE account = $1`,
    removeExpiredRecords: `DELETE FROM ${schema}.records WHERE expires_at < ${databaseNow} - $1::double precision`,
  };
}
