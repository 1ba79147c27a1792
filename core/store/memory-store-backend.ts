import { EventEmitter } from 'node:events';
import Keyv from 'keyv';
import { assertBudgetClaim, refusedBudget } from './budget-claim.js';
import { assertQuotaUnits } from './quota-units.js';
import { assertRateCorrection, assertRateDraws, correctBucket, drawOnBuckets, type RateBucketState } from './rate-bucket.js';
import type { BudgetClaim, BudgetWindowUsage, HoldLease, SettleOptions, QuotaBalance, QuotaReservation, QuotaSettlement, RateCorrection, RateDraw, RateDrawResult, ReturnedHold, SlotAcquisition, SlotClaim, SlotLease, StoreBackend, StoreEntry, StoreWrites, WindowHit } from './store-backend.js';
import { splitRecordKey } from './store-entries.js';
import { MemoryUsageLogStore } from './memory-usage-log-store.js';
import { MemoryAuditLogStore } from './memory-audit-log-store.js';

/** Everything in this process's memory: for tests and throwaway single-process runs. */
export class MemoryStoreBackend implements StoreBackend {
  readonly driver = 'memory';
  readonly #keyvs = new Map<string, Keyv>();
  readonly #counters = new Map<string, number>();
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  // Windows are keyed by what clients choose (a failed authentication's address), so reset
  // ones are swept once the map has doubled since the last sweep: memory follows the live ones.
  #windowSweepSize = 1024;
  readonly #sets = new Map<string, Set<string>>();
  readonly #rateBuckets = new Map<string, RateBucketState>();
  readonly #balances = new Map<string, QuotaBalance>();
  /** Holds by id; `expiresAt` null for a detached one. */
  readonly #holds = new Map<string, MemoryHold>();
  /** Budget windows by key: what each counts, and when its period ends. */
  readonly #budgetWindows = new Map<string, { used: number; endsAt: number }>();
  /** Live slots per key: slot id to lease expiry. */
  readonly #slots = new Map<string, Map<string, number>>();
  readonly #messages = new EventEmitter();
  readonly #usageLog = new MemoryUsageLogStore();
  readonly #auditLog = new MemoryAuditLogStore();
  #closed = false;

  keyv<Value>(namespace: string): Keyv<Value> {
    let keyv = this.#keyvs.get(namespace);
    if (keyv === undefined) {
      keyv = new Keyv({ namespace, throwOnErrors: true });
      this.#keyvs.set(namespace, keyv);
    }
    return keyv as Keyv<Value>;
  }

  usageLog(): MemoryUsageLogStore {
    return this.#usageLog;
  }

  auditLog(): MemoryAuditLogStore {
    return this.#auditLog;
  }

  async writeTogether(writes: StoreWrites): Promise<void> {
    this.#assertOpen();
    // Serialized first (keyv's serializer may be asynchronous), then written in one synchronous
    // step into the maps keyv reads, so no reader comes between.
    const records = await Promise.all(
      (writes.records ?? []).map(async ({ namespace, key, value }) => {
        const keyv = this.keyv(namespace);
        return { store: keyv.store as Map<string, unknown>, key: keyv._getKeyPrefix(key), value: await keyv.serializeData({ value }) };
      }),
    );
    this.#assertOpen();
    for (const record of records) record.store.set(record.key, record.value);
    for (const { key, members } of writes.setAdditions ?? []) this.#addToSet(key, members);
    for (const { account, remain } of writes.remaining ?? []) this.#writeRemaining(account, remain);
  }

  async increment(key: string, by = 1): Promise<number> {
    this.#assertOpen();
    const value = (this.#counters.get(key) ?? 0) + by;
    this.#counters.set(key, value);
    return value;
  }

  async hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit> {
    this.#assertOpen();
    const now = Date.now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      if (this.#windows.size >= this.#windowSweepSize) this.#sweepWindows(now);
      window = { count: 0, resetAt: now + windowMilliseconds };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMilliseconds: window.resetAt - now };
  }

  async sweepWindows(limit: number): Promise<number> {
    this.#assertOpen();
    const now = Date.now();
    let removed = 0;
    for (const [key, window] of this.#windows) {
      if (removed >= limit) break;
      if (window.resetAt > now) continue;
      this.#windows.delete(key);
      removed += 1;
    }
    for (const [key, window] of this.#budgetWindows) {
      if (removed >= limit) break;
      if (window.endsAt > now) continue;
      this.#budgetWindows.delete(key);
      removed += 1;
    }
    return removed;
  }

  #sweepWindows(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    this.#windowSweepSize = Math.max(1024, this.#windows.size * 2);
  }

  async drawRates(draws: readonly RateDraw[]): Promise<RateDrawResult> {
    this.#assertOpen();
    assertRateDraws(draws);
    const { result, next } = drawOnBuckets(draws.map((draw) => this.#rateBuckets.get(draw.key)), draws, Date.now());
    next.forEach((state, index) => this.#rateBuckets.set((draws[index] as RateDraw).key, state));
    return result;
  }

  async correctRate(correction: RateCorrection): Promise<void> {
    this.#assertOpen();
    assertRateCorrection(correction);
    const next = correctBucket(this.#rateBuckets.get(correction.key), correction, Date.now());
    if (next !== undefined) this.#rateBuckets.set(correction.key, next);
  }

  async addToSet(key: string, members: readonly string[]): Promise<void> {
    this.#assertOpen();
    this.#addToSet(key, members);
  }

  #addToSet(key: string, members: readonly string[]): void {
    let set = this.#sets.get(key);
    if (set === undefined) this.#sets.set(key, (set = new Set()));
    for (const member of members) set.add(member);
  }

  async removeFromSet(key: string, members: readonly string[]): Promise<number> {
    this.#assertOpen();
    const set = this.#sets.get(key);
    if (set === undefined) return 0;
    let removed = 0;
    for (const member of members) if (set.delete(member)) removed += 1;
    return removed;
  }

  async setMembers(key: string): Promise<string[]> {
    this.#assertOpen();
    return [...(this.#sets.get(key) ?? [])];
  }

  async readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>> {
    this.#assertOpen();
    const result = new Map<string, QuotaBalance>();
    for (const account of accounts) {
      const balance = this.#balances.get(account);
      if (balance !== undefined) result.set(account, { ...balance });
    }
    return result;
  }

  async writeRemaining(account: string, remain: number): Promise<void> {
    this.#assertOpen();
    this.#writeRemaining(account, remain);
  }

  #writeRemaining(account: string, remain: number): void {
    this.#balances.set(account, { remain, used: this.#balances.get(account)?.used ?? 0 });
  }

  async reserve(account: string, amount: number, lease?: HoldLease, budget?: BudgetClaim): Promise<QuotaReservation> {
    this.#assertOpen();
    assertQuotaUnits('amount', amount);
    assertBudgetClaim(budget, lease);
    const balance = this.#balances.get(account);
    const unlimited = budget?.unlimited === true && budget.windows.length > 0;
    if (!unlimited) {
      if (balance === undefined) return { granted: false, remain: 0 };
      if (balance.remain < amount) return { granted: false, remain: balance.remain };
    }
    const windows = budget?.windows ?? [];
    if (windows.length > 0) {
      const used = windows.map((window) => this.#budgetWindows.get(window.key)?.used ?? 0);
      const refused = refusedBudget(budget as BudgetClaim, amount, used);
      if (refused !== undefined) return { granted: false, remain: balance?.remain ?? 0, budget: refused };
    }
    if (!unlimited) (balance as QuotaBalance).remain -= amount;
    const counted = windows.map((window) => {
      let stored = this.#budgetWindows.get(window.key);
      if (stored === undefined) this.#budgetWindows.set(window.key, (stored = { used: 0, endsAt: window.endsAt }));
      stored.used += amount;
      return stored.used;
    });
    if (lease !== undefined) {
      this.#holds.set(lease.id, {
        account,
        units: unlimited ? 0 : amount,
        owner: lease.owner,
        expiresAt: Date.now() + lease.leaseMilliseconds,
        ...(windows.length > 0 ? { budget: { windows: windows.map((window) => window.key), units: amount } } : {}),
      });
    }
    const remain = balance?.remain ?? 0;
    return windows.length > 0 ? { granted: true, remain, budget: { used: counted } } : { granted: true, remain };
  }

  async settle(account: string, reserved: number, actual: number, holdId?: string, options: SettleOptions = {}): Promise<QuotaSettlement> {
    const unlimited = options.unlimited === true;
    this.#assertOpen();
    assertQuotaUnits('reserved', reserved);
    assertQuotaUnits('actual', actual);
    const hold = holdId === undefined ? undefined : this.#holds.get(holdId);
    if (holdId !== undefined) this.#holds.delete(holdId);
    const held = holdId === undefined || hold !== undefined;
    const balance = this.#balances.get(account);
    if (unlimited) {
      if (balance !== undefined) balance.used += actual;
      this.#correctBudget(hold?.budget, actual);
      return { remain: balance?.remain ?? 0, used: balance?.used ?? 0, charged: actual, held };
    }
    if (balance === undefined) {
      this.#correctBudget(hold?.budget, 0);
      return { remain: 0, used: 0, charged: 0, held };
    }
    const available = balance.remain + (held ? reserved : 0);
    const charged = Math.max(0, Math.min(actual, available));
    balance.remain = available - charged;
    balance.used += charged;
    this.#correctBudget(hold?.budget, charged);
    return { ...balance, charged, held };
  }

  /** Moves the windows a hold counted `budget.units` in to count `charged` instead; removed windows stay absent. */
  #correctBudget(budget: MemoryHold['budget'], charged: number): void {
    if (budget === undefined) return;
    for (const key of budget.windows) {
      const window = this.#budgetWindows.get(key);
      if (window !== undefined) window.used = Math.max(0, window.used + charged - budget.units);
    }
  }

  async readBudgetWindows(keys: readonly string[]): Promise<BudgetWindowUsage> {
    this.#assertOpen();
    const result: BudgetWindowUsage = new Map();
    for (const key of keys) {
      const window = this.#budgetWindows.get(key);
      if (window !== undefined) result.set(key, window.used);
    }
    return result;
  }

  async detachHold(holdId: string): Promise<boolean> {
    this.#assertOpen();
    const hold = this.#holds.get(holdId);
    if (hold !== undefined) hold.expiresAt = null;
    return hold !== undefined;
  }

  async renewLeases(leases: { holds: readonly string[]; slots: readonly SlotLease[] }, leaseMilliseconds: number): Promise<void> {
    this.#assertOpen();
    const expiresAt = Date.now() + leaseMilliseconds;
    for (const id of leases.holds) {
      const hold = this.#holds.get(id);
      if (hold !== undefined && hold.expiresAt !== null) hold.expiresAt = expiresAt;
    }
    for (const slot of leases.slots) for (const key of slot.keys) if (this.#slots.get(key)?.has(slot.id)) this.#slots.get(key)?.set(slot.id, expiresAt);
  }

  async sweepHolds(limit: number): Promise<ReturnedHold[]> {
    this.#assertOpen();
    const now = Date.now();
    const returned: ReturnedHold[] = [];
    for (const [id, hold] of this.#holds) {
      if (returned.length >= limit) break;
      if (hold.expiresAt === null || hold.expiresAt > now) continue;
      this.#holds.delete(id);
      const balance = this.#balances.get(hold.account);
      if (balance !== undefined) balance.remain += hold.units;
      this.#correctBudget(hold.budget, 0);
      returned.push({ id, account: hold.account, units: hold.units });
    }
    return returned;
  }

  async acquireSlots(claims: readonly SlotClaim[], lease: HoldLease): Promise<SlotAcquisition> {
    this.#assertOpen();
    const now = Date.now();
    for (const [index, claim] of claims.entries()) {
      const slots = this.#slots.get(claim.key);
      if (slots === undefined) continue;
      for (const [id, expiresAt] of slots) if (expiresAt <= now) slots.delete(id);
      if (slots.size >= claim.limit) return { granted: false, refused: index };
    }
    for (const claim of claims) {
      let slots = this.#slots.get(claim.key);
      if (slots === undefined) this.#slots.set(claim.key, (slots = new Map()));
      slots.set(lease.id, now + lease.leaseMilliseconds);
    }
    return { granted: true };
  }

  async releaseSlot(slot: SlotLease): Promise<void> {
    this.#assertOpen();
    for (const key of slot.keys) {
      const slots = this.#slots.get(key);
      slots?.delete(slot.id);
      if (slots?.size === 0) this.#slots.delete(key);
    }
  }

  async addUsed(account: string, amount: number): Promise<void> {
    this.#assertOpen();
    assertQuotaUnits('amount', amount);
    const balance = this.#balances.get(account);
    if (balance !== undefined) balance.used += amount;
  }

  async deleteBalance(account: string): Promise<void> {
    this.#assertOpen();
    this.#balances.delete(account);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#messages.emit(channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#messages.on(channel, handler);
  }

  /** Records of the namespaces this process has opened, which are all a memory store can hold. */
  async *exportEntries(): AsyncGenerator<StoreEntry> {
    this.#assertOpen();
    for (const keyv of this.#keyvs.values()) {
      for (const [key, value] of keyv.store as Map<string, unknown>) {
        yield { kind: 'record', key, value: typeof value === 'string' ? value : JSON.stringify(value) };
      }
    }
    for (const [key, members] of this.#sets) yield { kind: 'set', key, members: [...members] };
    for (const [key, value] of this.#counters) yield { kind: 'counter', key, value };
    const now = Date.now();
    for (const [key, window] of this.#windows) if (window.resetAt > now) yield { kind: 'window', key, count: window.count, resetAt: window.resetAt };
    for (const [account, balance] of this.#balances) yield { kind: 'balance', account, ...balance };
    for (const [id, hold] of this.#holds) yield { kind: 'hold', id, ...hold, ...(hold.budget === undefined ? {} : { budget: { windows: [...hold.budget.windows], units: hold.budget.units } }) };
    for (const [key, window] of this.#budgetWindows) if (window.endsAt > now) yield { kind: 'budget', key, used: window.used, endsAt: window.endsAt };
    for (const record of this.#usageLog.exportRecords()) yield { kind: 'usage', record };
    for (const record of this.#auditLog.exportRecords()) yield { kind: 'audit', record };
  }

  async importEntries(entries: AsyncIterable<StoreEntry>): Promise<void> {
    for await (const entry of entries) {
      this.#assertOpen();
      if (entry.kind === 'record') (this.keyv(splitRecordKey(entry.key).namespace).store as Map<string, unknown>).set(entry.key, entry.value);
      else if (entry.kind === 'set') this.#addToSet(entry.key, entry.members);
      else if (entry.kind === 'counter') this.#counters.set(entry.key, entry.value);
      else if (entry.kind === 'window') this.#windows.set(entry.key, { count: entry.count, resetAt: entry.resetAt });
      else if (entry.kind === 'balance') this.#balances.set(entry.account, { remain: entry.remain, used: entry.used });
      else if (entry.kind === 'hold') {
        this.#holds.set(entry.id, { account: entry.account, units: entry.units, owner: entry.owner, expiresAt: entry.expiresAt, ...(entry.budget === undefined ? {} : { budget: entry.budget }) });
      } else if (entry.kind === 'budget') this.#budgetWindows.set(entry.key, { used: entry.used, endsAt: entry.endsAt });
      else if (entry.kind === 'usage') this.#usageLog.importRecord(entry.record);
      else this.#auditLog.importRecord(entry.record);
    }
  }

  async ping(): Promise<void> {
    this.#assertOpen();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#messages.removeAllListeners();
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the memory store is closed');
  }
}

/** A hold; `expiresAt` null for a detached one, `budget` the windows it counted in and the units it counted. */
interface MemoryHold {
  account: string;
  units: number;
  owner: string;
  expiresAt: number | null;
  budget?: { windows: string[]; units: number };
}
