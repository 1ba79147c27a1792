import type Keyv from 'keyv';

/** A token's quota balance as the ledger keeps it. */
export interface QuotaBalance {
  /** Units the token may still spend. */
  remain: number;
  /** Units the token has spent. */
  used: number;
}

/** The answer to a reservation: whether it was granted, and what the account has left. */
export interface QuotaReservation {
  /** True when the units were taken from the account. */
  granted: boolean;
  /** Units left after the reservation; when refused, what the account has (0 without a balance). */
  remain: number;
}

/** An account's balance after a settlement, and what the settlement charged. */
export interface QuotaSettlement extends QuotaBalance {
  /** Units charged: the actual cost, or less when the account could not pay it all. */
  charged: number;
}

/** The result of counting one hit in a fixed time window. */
export interface WindowHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetInMilliseconds: number;
}

/** Which storage driver a backend implements. */
export type StoreDriver = 'memory' | 'sqlite' | 'redis';

/**
 * What a storage driver provides. Records go through keyv; what keyv cannot do atomically
 * (id sequences, index sets, quota balances, rate windows) has a primitive here, which each
 * driver implements atomically in its own way: synchronous maps in memory, single SQL
 * statements on SQLite, single commands or Lua scripts on Redis. Repositories build on these
 * and never know the driver.
 */
export interface StoreBackend {
  readonly driver: StoreDriver;
  /** A keyv instance whose keys live under `namespace`; the same instance for the same name. */
  keyv<Value>(namespace: string): Keyv<Value>;
  /** Atomically adds `by` to a counter and returns the new value (1 for a new counter and `by` = 1). */
  increment(key: string, by?: number): Promise<number>;
  /** Atomically counts a hit in a fixed window of `windowMilliseconds` that starts with the first hit. */
  hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit>;
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
   * has no balance. `amount` is a non-negative integer.
   */
  reserve(account: string, amount: number): Promise<QuotaReservation>;
  /**
   * Atomically gives back a reservation of `reserved` units and charges `actual` units:
   * `charged = min(actual, remain + reserved)`, `remain += reserved - charged`,
   * `used += charged`. The remaining units never go below 0. An account without a balance
   * is left absent and reported as all zeros. Both amounts are non-negative integers.
   */
  settle(account: string, reserved: number, actual: number): Promise<QuotaSettlement>;
  /**
   * Atomically adds `amount` units to what the account used, leaving its remaining units
   * alone (unlimited tokens). An account without a balance is left absent.
   */
  addUsed(account: string, amount: number): Promise<void>;
  /** Removes an account's balance. */
  deleteBalance(account: string): Promise<void>;
  /** Sends a message to every process sharing this store, this one included. */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for each message on `channel`, from any process sharing this store. */
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  /** Closes every connection; the backend is unusable afterwards. */
  close(): Promise<void>;
}
