import type Keyv from 'keyv';
import type { AuditLogStore } from '../audit/audit-log-store.js';
import type { AuditRecord } from '../audit/audit-record.js';
import type { UsageLogStore } from '../usage/usage-log-store.js';
import type { UsageRecord } from '../usage/usage-record.js';

/** A token's quota balance as the ledger keeps it. */
export interface QuotaBalance {
  /** Units the token may still spend. */
  remain: number;
  /** Units the token has spent. */
  used: number;
}

/**
 * One period's window of a budget (see {@link BudgetClaim}): a counter of the units charged in
 * one period (a token's day, a user's month), keyed by who, which period and when it started.
 */
export interface BudgetWindow {
  /** The window's key, unique per scope, id, period and start: `token:5:daily:2026-12-02`. */
  key: string;
  /** Units the window may count: a whole number of at least 0. */
  limit: number;
  /** True for a hard budget, which refuses a reservation that does not fit; a soft one only counts. */
  hard: boolean;
  /** When the period ends, in milliseconds since the epoch: the window may be removed after that. */
  endsAt: number;
}

/**
 * The budget windows a reservation is counted in too, in the same atomic step as its quota
 * (see {@link StoreBackend.reserve}).
 */
export interface BudgetClaim {
  /** The windows; an empty list costs nothing. */
  windows: readonly BudgetWindow[];
  /**
   * True for an unlimited token: its balance is neither checked nor changed (nor needed),
   * only the windows are; the hold then holds 0 quota units and `amount` window units.
   */
  unlimited: boolean;
}

/** How {@link StoreBackend.settle} settles a hold reserved with a {@link BudgetClaim}. */
export interface SettleOptions {
  /**
   * True for an unlimited token's hold: the balance's remaining units are left alone, `actual`
   * is charged in full and counted as used.
   */
  unlimited?: boolean;
  /**
   * True when the hold was reserved with budget windows; its windows are corrected only then.
   * PostgreSQL locks windows apart from balances (in a transaction of its own, not the group
   * commit) and must know before it starts; SQLite looks the hold's windows up only then, so
   * every other settlement costs no extra statement. Memory and Redis read them from the hold.
   */
  budget?: boolean;
}

/** The answer to a reservation: whether it was granted, and what the account has left. */
export interface QuotaReservation {
  /** True when the units were taken from the account. */
  granted: boolean;
  /** Units left after the reservation; when refused, what the account has (0 without a balance). */
  remain: number;
  /**
   * With a {@link BudgetClaim}: when granted, what each window counts after the reservation,
   * in the claim's order; when refused by a hard window, that window's index and what it
   * counted (`used`, so the request's amount did not fit `limit - used`).
   */
  budget?: { used: number[] } | { refused: number; used: number };
}

/** An account's balance after a settlement, and what the settlement charged. */
export interface QuotaSettlement extends QuotaBalance {
  /** Units charged: the actual cost, or less when the account could not pay it all. */
  charged: number;
  /**
   * False when the settlement named a hold that was no longer there (the sweeper had returned
   * it): nothing was given back, and `charged` was taken from what the account had left.
   */
  held: boolean;
}

/**
 * The lease a reservation's hold is recorded under (see {@link StoreBackend.reserve}): the
 * hold lives until it is settled, or until its lease runs out without a renewal
 * ({@link StoreBackend.renewLeases}), when {@link StoreBackend.sweepHolds} gives it back.
 */
export interface HoldLease {
  /** The hold's id, unique among every instance's holds and slots. */
  id: string;
  /** The instance that holds it: the one that renews and settles it. */
  owner: string;
  /** How long it lives without a renewal: a whole number of milliseconds, at least 1. */
  leaseMilliseconds: number;
}

/** A hold {@link StoreBackend.sweepHolds} gave back. */
export interface ReturnedHold {
  id: string;
  account: string;
  units: number;
}

/** What {@link StoreBackend.readBudgetWindows} answers for one window: the units it counts. */
export type BudgetWindowUsage = Map<string, number>;

/** A concurrency slot taken by {@link StoreBackend.acquireSlots}: one id, counted under each of `keys`. */
export interface SlotLease {
  id: string;
  keys: readonly string[];
}

/** One limit a slot must fit in: at most `limit` live slots under `key`. */
export interface SlotClaim {
  key: string;
  /** A whole number of at least 1. */
  limit: number;
}

/** The answer to {@link StoreBackend.acquireSlots}. */
export type SlotAcquisition = { granted: true } | { granted: false; refused: number };

/** The result of counting one hit in a fixed time window. */
export interface WindowHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetInMilliseconds: number;
}

/**
 * One draw on a rate bucket (see {@link StoreBackend.drawRates}): a bucket of `capacity`
 * units that refills continuously, from empty to full in `windowMilliseconds`.
 */
export interface RateDraw {
  /** The bucket. */
  key: string;
  /** Units to take: a whole number from 0 to `capacity`. */
  amount: number;
  /** Units the bucket holds when full: a whole number of at least 1. */
  capacity: number;
  /** How long an empty bucket takes to fill up: a whole number of milliseconds, at least 1. */
  windowMilliseconds: number;
}

/** Where a granted draw left its bucket; {@link StoreBackend.correctRate} reads it to give units back. */
export interface RateMark {
  /** Units the draw took. */
  amount: number;
  /** When the bucket would be full again right after the draw, in (fractional) milliseconds since the epoch. */
  fullAt: number;
  /** What had been given back to the bucket in all, in milliseconds of refill, at the time of the draw. */
  returned: number;
}

/** The answer to {@link StoreBackend.drawRates}. */
export type RateDrawResult =
  /** Every bucket had room; `marks` follow the order of the draws. */
  | { granted: true; marks: RateMark[] }
  /** Nothing was taken. `refused` is the index of the draw that waits longest, `retryInMilliseconds` how long until every draw would fit. */
  | { granted: false; refused: number; retryInMilliseconds: number };

/** A change to what an earlier granted draw took, once the real amount is known; see {@link StoreBackend.correctRate}. */
export interface RateCorrection {
  key: string;
  /** Units to add (more was used than drawn) or, when negative, to give back (never more than the draw took): a whole number. */
  delta: number;
  /** The bucket's capacity, as drawn. */
  capacity: number;
  /** The bucket's window, as drawn. */
  windowMilliseconds: number;
  /** The mark the draw returned. */
  mark: RateMark;
}

/**
 * Writes that belong together, for {@link StoreBackend.writeTogether}: a token's record, its
 * index entries and its balance, say.
 */
export interface StoreWrites {
  /** Records to set (without expiry), each in the keyv namespace whose `keyv()` reads it. */
  records?: ReadonlyArray<{ namespace: string; key: string; value: unknown }>;
  /** Members to add to sets, as {@link StoreBackend.addToSet} does. */
  setAdditions?: ReadonlyArray<{ key: string; members: readonly string[] }>;
  /** Accounts' remaining units to set, as {@link StoreBackend.writeRemaining} does. */
  remaining?: ReadonlyArray<{ account: string; remain: number }>;
}

/**
 * One piece of a store's durable content, in a form every driver reads and writes, so that
 * {@link StoreBackend.exportEntries} of one driver feeds {@link StoreBackend.importEntries} of
 * another (`model-gateway storage copy`). Rate buckets have no entry: they are transient, and a
 * bucket that is absent is full.
 */
export type StoreEntry =
  /**
   * A keyv record. `key` is keyv's namespaced key, `<namespace>:<key>`, as the SQL drivers
   * store it; `value` is keyv's serialization (JSON of `{ value, expires }`), copied verbatim,
   * so a record keeps its expiry and nothing is deserialized on the way.
   */
  | { kind: 'record'; key: string; value: string }
  /** A set and its members. */
  | { kind: 'set'; key: string; members: string[] }
  /** A counter (an id sequence) and its current value. */
  | { kind: 'counter'; key: string; value: number }
  /**
   * A fixed window of {@link StoreBackend.hitWindow} that has not reset yet: some are claims
   * (a task's settlement) that must survive a move. `resetAt` is milliseconds since the epoch.
   */
  | { kind: 'window'; key: string; count: number; resetAt: number }
  /** A quota balance. */
  | { kind: 'balance'; account: string; remain: number; used: number }
  /**
   * A reservation's hold. `expiresAt` is when its lease runs out (milliseconds since the
   * epoch), null for a hold a video task owns, which no sweeper returns. Concurrency slots have
   * no entry: like rate buckets they are transient, and expire within a lease.
   */
  | {
      kind: 'hold';
      id: string;
      account: string;
      units: number;
      owner: string;
      expiresAt: number | null;
      /** The keys of the budget windows the hold counted in, and the units it counted in each (absent: none). */
      budget?: { windows: string[]; units: number };
    }
  /** A budget window ({@link BudgetWindow}) that has not ended: the units it counts. `endsAt` is milliseconds since the epoch. */
  | { kind: 'budget'; key: string; used: number; endsAt: number }
  /** A record of the usage log, with its id (an import keeps it, and new records' ids continue after the largest). */
  | { kind: 'usage'; record: UsageRecord }
  /** A record of the audit trail, with its id (kept by an import, as a usage record's is). */
  | { kind: 'audit'; record: AuditRecord };

/** The message a subscriber gets when messages may have been missed (its connection came back). */
export const missedMessages = '*';

/** Which storage driver a backend implements. */
export type StoreDriver = 'memory' | 'sqlite' | 'redis' | 'postgres';

/**
 * What a storage driver provides. Records go through keyv; what keyv cannot do atomically
 * (id sequences, index sets, quota balances, rate windows) has a primitive here, which each
 * driver implements atomically in its own way: synchronous maps in memory, single SQL
 * statements on SQLite and PostgreSQL, single commands or Lua scripts on Redis. Repositories
 * build on these and never know the driver.
 */
export interface StoreBackend {
  readonly driver: StoreDriver;
  /** A keyv instance whose keys live under `namespace`; the same instance for the same name. */
  keyv<Value>(namespace: string): Keyv<Value>;
  /**
   * The usage log: a table on SQLite and PostgreSQL, capped streams on Redis, a bounded list in
   * memory; the same instance on every call. Shared by every process that shares the store.
   */
  usageLog(): UsageLogStore;
  /**
   * The audit trail of admin changes: a table on SQLite and PostgreSQL, a stream on Redis, a
   * bounded list in memory; the same instance on every call, shared as the usage log is.
   */
  auditLog(): AuditLogStore;
  /**
   * Writes records, set members and balances all together or not at all: no reader sees some
   * without the others, and a crash leaves none or all of them. SQLite writes them in one
   * transaction, PostgreSQL in one statement, Redis in one MULTI (no other client's command
   * in between; Redis does not roll back a command that fails at run time, which a key of one
   * type never does), memory in one synchronous step.
   */
  writeTogether(writes: StoreWrites): Promise<void>;
  /** Atomically adds `by` to a counter and returns the new value (1 for a new counter and `by` = 1). */
  increment(key: string, by?: number): Promise<number>;
  /** Atomically counts a hit in a fixed window of `windowMilliseconds` that starts with the first hit. */
  hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit>;
  /**
   * Removes at most `limit` windows of {@link hitWindow} whose reset time has passed, and
   * returns how many it removed. A reset window already counts as new at its next hit and is
   * never exported, so removing it changes nothing anyone reads; without this the store would
   * keep a row for every key ever hit (each address that failed to authenticate, each task
   * polled). Safe to run from several processes at once: each window is removed once, and one
   * hit meanwhile (so started anew) is kept. Redis expires its windows with their keys, so
   * there it finds none and returns 0. Budget windows ({@link BudgetWindow}) whose period
   * ended are removed too, within the same limit.
   */
  sweepWindows(limit: number): Promise<number>;
  /**
   * Atomically draws on several rate buckets, all or nothing (the generic cell rate
   * algorithm). Each bucket holds `capacity` units when full and refills continuously at
   * `capacity` per `windowMilliseconds`; a draw fits when the bucket holds at least `amount`.
   * When every draw fits they are all taken; otherwise nothing is, and the answer says how
   * long until they would all fit. Redis and PostgreSQL read their own clock, so every
   * instance agrees.
   */
  drawRates(draws: readonly RateDraw[]): Promise<RateDrawResult>;
  /**
   * Atomically corrects a granted draw. A positive `delta` takes that many more units now,
   * even past empty (the bucket then refuses until it has refilled the debt). A negative one
   * gives back at most what the draw still holds in the bucket: units of a draw the bucket
   * has already refilled are not returned twice, so a correction never lets more through
   * than the limit.
   */
  correctRate(correction: RateCorrection): Promise<void>;
  /** Adds members to a set. */
  addToSet(key: string, members: readonly string[]): Promise<void>;
  /** Removes members from a set and returns how many were there. */
  removeFromSet(key: string, members: readonly string[]): Promise<number>;
  /** The members of a set, in no particular order. */
  setMembers(key: string): Promise<string[]>;
  /** Balances of the given accounts; accounts without a balance are absent from the map. */
  readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>>;
  /** Sets an account's remaining units, keeping what it used (0 for a new account). */
  writeRemaining(account: string, remain: number): Promise<void>;
  /**
   * Atomically takes `amount` units from the account's remaining units, but only when it
   * has at least that many; refuses (and changes nothing) otherwise or when the account
   * has no balance. `amount` is a non-negative integer. With `lease`, a granted reservation
   * also records its hold (id, account, units, owner, lease expiry) in the same atomic step,
   * so a hold whose owner dies is given back by {@link sweepHolds}.
   *
   * With `budget` (and `lease`, which it needs), the same step also adds `amount` to each of
   * its windows, and refuses (changing nothing, windows and quota alike) when a hard window's
   * count plus `amount` would pass its limit. The hold records the windows, so its settlement
   * and its sweep correct the windows it was counted in, even after their period ended.
   */
  reserve(account: string, amount: number, lease?: HoldLease, budget?: BudgetClaim): Promise<QuotaReservation>;
  /**
   * Atomically gives back a reservation of `reserved` units and charges `actual` units:
   * `charged = min(actual, remain + reserved)`, `remain += reserved - charged`,
   * `used += charged`. The remaining units never go below 0. An account without a balance
   * is left absent and reported as all zeros. Both amounts are non-negative integers.
   *
   * With `holdId`, the hold is removed in the same atomic step, exactly once: when it is no
   * longer there (the sweeper returned it), nothing is given back (`reserved` counts as 0),
   * `actual` is still charged from what is left, and the answer says `held: false`.
   *
   * A hold counted in budget windows moves them in the same step by `charged - reserved`
   * (never below 0); a window already removed (its period ended and was swept) is left
   * absent. See {@link SettleOptions} for an unlimited token's hold and for a hold reserved with
   * a budget.
   */
  settle(account: string, reserved: number, actual: number, holdId?: string, options?: SettleOptions): Promise<QuotaSettlement>;
  /** What each of the given budget windows counts; a window without a count is absent (counts 0). */
  readBudgetWindows(keys: readonly string[]): Promise<BudgetWindowUsage>;
  /**
   * Hands a hold over to a record that outlives its owner (a video task): it loses its lease,
   * so no sweeper returns it; it stays until a settlement names it. False when it was gone.
   */
  detachHold(holdId: string): Promise<boolean>;
  /**
   * Pushes the lease of every hold and slot in `leases` (ids of holds, and slots) to
   * `leaseMilliseconds` from now, in one write; ids that are gone or detached are passed over.
   */
  renewLeases(leases: { holds: readonly string[]; slots: readonly SlotLease[] }, leaseMilliseconds: number): Promise<void>;
  /**
   * Gives back at most `limit` holds whose lease ran out, each exactly once: removing the hold
   * and returning its units to the account (and to the budget windows it was counted in) is
   * one atomic step, so two sweepers (or a sweeper and a late settlement) never return one
   * twice. Returns what it gave back.
   */
  sweepHolds(limit: number): Promise<ReturnedHold[]>;
  /**
   * Atomically takes one slot under every key of `claims`, all or nothing: granted when each
   * key has fewer than its `limit` live slots (slots whose lease ran out do not count, and are
   * removed). The slot lives until {@link releaseSlot} or until its lease runs out.
   */
  acquireSlots(claims: readonly SlotClaim[], lease: HoldLease): Promise<SlotAcquisition>;
  /** Removes a slot under every key it was taken under; a slot already gone is passed over. */
  releaseSlot(slot: SlotLease): Promise<void>;
  /**
   * Atomically adds `amount` units to what the account used, leaving its remaining units
   * alone (unlimited tokens). An account without a balance is left absent.
   */
  addUsed(account: string, amount: number): Promise<void>;
  /** Removes an account's balance. */
  deleteBalance(account: string): Promise<void>;
  /** Sends a message to every process sharing this store, this one included. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `handler` for each message on `channel`, from any process sharing this store. After
   * a lost connection to the broker comes back, `handler` is called once with
   * {@link missedMessages}: what was sent meanwhile is gone, so the subscriber must assume
   * anything changed.
   */
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  /**
   * Everything durable the store holds (records, sets, counters, windows, balances, holds, the
   * usage log; no rate buckets nor slots), as driver-neutral entries in no particular order
   * (the usage log's records oldest first). Meant for a store no gateway is
   * writing to: SQLite reads one snapshot, the other drivers read as they go.
   */
  exportEntries(): AsyncIterable<StoreEntry>;
  /**
   * Writes entries as they are, replacing what the store holds under the same keys. SQLite and
   * PostgreSQL import in one transaction, all or nothing; Redis in batches, so a failure can
   * leave part of the entries written.
   */
  importEntries(entries: AsyncIterable<StoreEntry>): Promise<void>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  /** Closes every connection; the backend is unusable afterwards. */
  close(): Promise<void>;
}
