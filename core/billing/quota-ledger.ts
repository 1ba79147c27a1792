import type { FastifyBaseLogger } from 'fastify';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import { BudgetPolicy, type ApplicableBudget } from '../budgets/budget-policy.js';
import { budgetExceeded, insufficientQuota } from '../errors/error-codes.js';
import { LeaseKeeper } from '../store/lease-keeper.js';
import { assertQuotaUnits } from '../store/quota-units.js';
import type { StoreBackend } from '../store/store-backend.js';
import { persistTokenStatus, restoreTokenStatus } from '../tokens/persist-token-status.js';
import { isExhausted, TokenStatus, type TokenView } from '../tokens/token-record.js';
import { tokenBalanceAccount, type TokenRepository } from '../tokens/token-repository.js';

/**
 * Quota held for one request. Exactly one of {@link settle} and {@link refund} takes effect:
 * whichever is called first; every later call of either is a no-op.
 */
export interface Reservation {
  /** The token the quota is held on. */
  readonly tokenId: number;
  /** Units held; 0 for an unlimited token. */
  readonly units: number;
  /**
   * The soft budgets this request's reservation took past their limit (served all the same):
   * for the metrics and the usage log. Empty for most requests.
   */
  readonly overBudget: readonly ApplicableBudget[];
  /**
   * Charges the request's actual cost (a non-negative integer of units) and gives back the
   * rest of the hold. A cost above the hold takes at most what the token has left.
   */
  settle(actualUnits: number): Promise<void>;
  /**
   * Gives back the whole hold, for a request that failed and delivered nothing; also after a
   * {@link settle} the store refused, whose retries then refund instead of charging.
   */
  refund(): Promise<void>;
  /**
   * Hands the hold over to a record that outlives this process's memory (a video task): the
   * hold stays taken, and this reservation's settle and refund become no-ops. Settle it later
   * with {@link QuotaLedger.settleHold}.
   */
  detach(): QuotaHold;
}

/** A hold taken by {@link QuotaLedger.reserve} and stored with a long-running task. */
export interface QuotaHold {
  tokenId: number;
  /** Units held; 0 for an unlimited token. */
  units: number;
  unlimited: boolean;
  /** The hold's id in the store (absent for an unlimited token without budgets, and in task records stored before holds had one). */
  holdId?: string;
  /** True when the hold was counted in budget windows: its settlement corrects them. */
  budget?: boolean;
}

/** The first wait before a failed settlement is tried again; it doubles up to {@link longestSettlementRetryMilliseconds}. */
const firstSettlementRetryMilliseconds = 250;
const longestSettlementRetryMilliseconds = 30_000;

/**
 * Reserves, settles and refunds token quota on the store's atomic balance primitives, so
 * concurrent requests (in this process or any other sharing the store) never spend the same
 * units twice and `remain_quota` never goes below 0. `used_quota` grows by exactly what is
 * charged, so the two change together. A limited token whose remaining units reach 0 is
 * stored with status 4 (exhausted); unlimited tokens hold nothing but still count usage.
 *
 * Each hold is recorded in the store with the units it takes, under a lease this instance
 * renews ({@link LeaseKeeper}), and removed with its settlement in the same atomic step. So
 * the hold of a request whose instance died is given back by a sweeper once its lease runs
 * out. A settlement the store refused is tried again from memory, with a growing pause, for as
 * long as this instance lives (its hold stays renewed meanwhile): the request is charged what
 * it delivered. Should the instance die first, the sweeper returns the whole hold, since
 * nothing else knows the cost. A settlement that arrives after its hold was swept gives
 * nothing back again and still charges what was delivered, from what the token has left.
 */
export class QuotaLedger {
  readonly #backend: StoreBackend;
  readonly #tokens: TokenRepository;
  readonly #logger: FastifyBaseLogger;
  readonly #leases: LeaseKeeper;
  readonly #budgets: BudgetPolicy;
  /** Open reservations per token in this process; see {@link #close}. */
  readonly #openReservations = new Map<number, number>();
  /** Pending retries of settlements the store refused. */
  readonly #retries = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.tokenRepository) tokens: TokenRepository,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
    @inject(LeaseKeeper) leases: LeaseKeeper,
    @inject(BudgetPolicy) budgets: BudgetPolicy,
  ) {
    this.#backend = backend;
    this.#tokens = tokens;
    this.#logger = logger;
    this.#leases = leases;
    this.#budgets = budgets;
    // A swept hold may lift a balance from 0 that another request had stored as exhausted.
    leases.onReturned((holds) => {
      const tokenIds = new Set(holds.filter((hold) => hold.units > 0).map((hold) => tokenIdOfAccount(hold.account)));
      for (const tokenId of tokenIds) if (tokenId !== undefined) void this.#reenable(tokenId);
    });
  }

  /**
   * Holds `units` (a non-negative integer) of the token's quota for one request. Throws 402
   * `insufficient_quota` when the token has fewer units left; an unlimited token holds
   * nothing, but the store must still answer (503 `service_unavailable` when it cannot).
   *
   * With budgets (the token's or its user's), the same atomic step counts `units` in each
   * current period's window, and a hard one that cannot take them refuses the request with 429
   * `budget_exceeded` (nothing is held nor counted); an unlimited token is then held like a
   * limited one, in its windows only.
   */
  async reserve(token: TokenView, units: number): Promise<Reservation> {
    assertQuotaUnits('units', units);
    const budgets = this.#budgets.applicable(token);
    if (budgets.length > 0) return this.#reserveInBudgets(token, units, budgets);
    if (token.unlimited_quota) {
      // Nothing is held, but the store must answer (a read of the balance) before the
      // upstream is called, so with storage down an unlimited token fails closed like the
      // others instead of having work done whose usage cannot be recorded.
      await this.#backend.readBalances([tokenBalanceAccount(token.id)]);
      return new LedgerReservation({ tokenId: token.id, units: 0, unlimited: true }, noBudgets, (charge) => this.settleHold({ tokenId: token.id, units: 0, unlimited: true }, charge.units), () => {});
    }
    const lease = this.#leases.lease();
    const reserved = await this.#backend.reserve(tokenBalanceAccount(token.id), units, lease);
    if (!reserved.granted) {
      throw insufficientQuota(
        `this request needs ${units} quota units but the token has ${reserved.remain} left; raise remain_quota or set unlimited_quota`,
      );
    }
    return this.#held(token, { tokenId: token.id, units, unlimited: false, holdId: lease.id }, noBudgets);
  }

  async #reserveInBudgets(token: TokenView, units: number, budgets: readonly ApplicableBudget[]): Promise<Reservation> {
    const lease = this.#leases.lease();
    const reserved = await this.#backend.reserve(tokenBalanceAccount(token.id), units, lease, { windows: budgets.map((budget) => budget.window), unlimited: token.unlimited_quota });
    if (!reserved.granted) {
      if (reserved.budget !== undefined && 'refused' in reserved.budget) throw this.#refusal(budgets[reserved.budget.refused] as ApplicableBudget, reserved.budget.used, units);
      throw insufficientQuota(
        `this request needs ${units} quota units but the token has ${reserved.remain} left; raise remain_quota or set unlimited_quota`,
      );
    }
    const counted = reserved.budget !== undefined && 'used' in reserved.budget && Array.isArray(reserved.budget.used) ? reserved.budget.used : [];
    const over = budgets.filter((budget, index) => budget.mode === 'soft' && (counted[index] ?? 0) > budget.limit);
    const hold: QuotaHold = { tokenId: token.id, units: token.unlimited_quota ? 0 : units, unlimited: token.unlimited_quota, holdId: lease.id, budget: true };
    return this.#held(token, hold, over);
  }

  /** The 429 of a hard budget that cannot take `units`: the period, the limit, what is left and when it resets, in the message and `Retry-After`. */
  #refusal(budget: ApplicableBudget, used: number, units: number) {
    const left = Math.max(0, budget.limit - used);
    const whose = budget.scope === 'token' ? 'this API key' : "this API key's user";
    const resetsAt = new Date(budget.span.end).toISOString();
    return budgetExceeded(
      `this request needs ${units} quota units but the ${budget.period} budget of ${whose} has ${left} of ${budget.limit} left; it resets at ${resetsAt}. Wait for the reset, or raise budget_${budget.period}`,
      (budget.span.end - this.#budgets.calendar.now()) / 1000,
    );
  }

  /** A granted hold as the reservation the caller settles or refunds. */
  #held(token: TokenView, hold: QuotaHold, over: readonly ApplicableBudget[]): Reservation {
    const holdId = hold.holdId as string;
    this.#leases.keepHold(holdId);
    if (!hold.unlimited) this.#openReservations.set(token.id, (this.#openReservations.get(token.id) ?? 0) + 1);
    return new LedgerReservation(
      hold,
      over,
      (charge) => {
        if (!hold.unlimited) this.#forget(token.id);
        return this.#settleKept(hold, charge);
      },
      () => {
        if (!hold.unlimited) this.#forget(token.id);
        this.#detach(holdId);
      },
    );
  }

  /** Stops retrying settlements; their holds are left to the sweeper once their leases run out. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#retries) clearTimeout(timer);
    this.#retries.clear();
  }

  /**
   * Settles a hold of this instance; when the store refuses, rejects and keeps trying in the
   * background, each time with what `charge` says then (a refund after the failure makes it 0).
   */
  async #settleKept(hold: QuotaHold, charge: Charge, attempt = 0): Promise<void> {
    try {
      await this.#closeHold(hold, charge.units);
    } catch (error) {
      if (this.#closed) throw error;
      const wait = Math.min(firstSettlementRetryMilliseconds * 2 ** attempt, longestSettlementRetryMilliseconds);
      this.#logger.warn({ err: error, tokenId: hold.tokenId, actualUnits: charge.units, retryInMilliseconds: wait }, 'could not settle a reservation; will try again while this instance runs');
      const timer = setTimeout(() => {
        this.#retries.delete(timer);
        this.#settleKept(hold, charge, attempt + 1).catch(() => {});
      }, wait);
      timer.unref();
      this.#retries.add(timer);
      throw error;
    }
    if (hold.holdId !== undefined) this.#leases.dropHold(hold.holdId);
  }

  /**
   * The hold goes with a video task: it loses its lease, so no sweeper returns it while the
   * task runs. Until the store has taken that, it is renewed like any other; should the store
   * refuse, it stays renewed, and the task's settlement later removes it.
   */
  #detach(holdId: string): void {
    this.#backend.detachHold(holdId).then(
      () => this.#leases.dropHold(holdId),
      (error: unknown) => this.#logger.warn({ err: error }, 'could not hand a quota hold over to its video task; it stays renewed by this instance'),
    );
  }

  /**
   * Settles a detached hold: charges `actualUnits` (0 refunds it all) and gives back the rest.
   * The caller makes sure this happens once per hold (a task claims its settlement first).
   */
  async settleHold(hold: QuotaHold, actualUnits: number): Promise<void> {
    assertQuotaUnits('actualUnits', actualUnits);
    if (hold.unlimited && hold.budget !== true) {
      if (actualUnits > 0) await this.#backend.addUsed(tokenBalanceAccount(hold.tokenId), actualUnits);
      return;
    }
    await this.#closeHold(hold, actualUnits);
    if (hold.holdId !== undefined) this.#leases.dropHold(hold.holdId);
  }

  /** Settles a hold in the store: an unlimited token's (held in its budget windows only) counts what it used; a limited one's goes through {@link #close}. */
  async #closeHold(hold: QuotaHold, actualUnits: number): Promise<void> {
    if (!hold.unlimited) return this.#close(hold.tokenId, hold.units, actualUnits, hold.holdId, hold.budget === true);
    await this.#backend.settle(tokenBalanceAccount(hold.tokenId), 0, actualUnits, hold.holdId, { unlimited: true, budget: true });
  }

  #forget(tokenId: number): void {
    const remainingOpen = (this.#openReservations.get(tokenId) ?? 1) - 1;
    if (remainingOpen > 0) this.#openReservations.set(tokenId, remainingOpen);
    else this.#openReservations.delete(tokenId);
  }

  /**
   * A give-back that lifted the balance from 0: another request (maybe of another process) had
   * spent the rest meanwhile and may have stored status 4, which would now refuse a token that
   * has quota again. Rare, so the fresh read it costs stays off the common path.
   */
  async #reenable(tokenId: number): Promise<void> {
    try {
      const stored = await restoreTokenStatus(this.#tokens, this.#backend, tokenId, TokenStatus.exhausted, (current) => !isExhausted(current));
      if (stored) this.#logger.info({ tokenId }, 'quota came back to a token stored as exhausted; enabled it again');
    } catch (error) {
      this.#logger.error({ err: error, tokenId }, 'could not enable a token whose quota came back');
    }
  }

  /** Settles a limited token's hold: `actualUnits` is 0 for a refund. */
  async #close(tokenId: number, reserved: number, actualUnits: number, holdId: string | undefined, budget: boolean): Promise<void> {
    const settled = await this.#backend.settle(tokenBalanceAccount(tokenId), reserved, actualUnits, holdId, budget ? { budget: true } : undefined);
    if (!settled.held) {
      this.#logger.warn(
        { tokenId, reservedUnits: reserved, chargedUnits: settled.charged },
        'a settlement came after the sweeper had returned its hold; charged what was delivered from what the token had left',
      );
    }
    if (settled.charged < actualUnits) {
      this.#logger.warn(
        { tokenId, actualUnits, chargedUnits: settled.charged },
        'the request cost more than the token had left; charged what remained',
      );
    }
    // Units held by another open request of this token read as 0 here but may come back
    // when that request settles, so the last one to close decides. Holds of other processes
    // are not visible, so one of them may store the status early; the give-back that then
    // lifts the balance from 0 puts the token back (below), so the status never sticks.
    if (settled.remain > 0) {
      const givenBack = (settled.held ? reserved : 0) - settled.charged;
      if (givenBack > 0 && settled.remain <= givenBack) await this.#reenable(tokenId);
      return;
    }
    if (this.#openReservations.has(tokenId)) return;
    try {
      const stored = await persistTokenStatus(this.#tokens, this.#backend, tokenId, TokenStatus.exhausted, isExhausted);
      if (stored) this.#logger.info({ tokenId }, 'the token has no quota left; stored it as exhausted');
    } catch (error) {
      // The charge itself went through; the next authentication stores the status instead.
      this.#logger.error({ err: error, tokenId }, 'could not store the exhausted status of a token');
    }
  }
}

/** The token whose balance `account` is (see tokenBalanceAccount); undefined for another account. */
function tokenIdOfAccount(account: string): number | undefined {
  const match = /^token:(\d+)$/.exec(account);
  return match === null ? undefined : Number(match[1]);
}

/** What a reservation without soft budgets past their limit reports: shared, never changed. */
const noBudgets: readonly ApplicableBudget[] = Object.freeze([]);

/** What a settlement charges; a settlement the store refused is retried with what it says then. */
interface Charge {
  units: number;
}

/**
 * A {@link Reservation} that runs `close` once, with the actual cost or 0 for a refund, unless
 * it is detached first. A refund after a settlement the store refused turns the retried
 * settlement into a refund: the caller could not deliver the answer it was settling (a JSON
 * body is sent only after its settlement).
 */
class LedgerReservation implements Reservation {
  readonly #hold: QuotaHold;
  readonly overBudget: readonly ApplicableBudget[];
  readonly #close: (charge: Charge) => Promise<void>;
  readonly #onDetach: () => void;
  #closed = false;
  #refused: Charge | undefined;

  constructor(hold: QuotaHold, overBudget: readonly ApplicableBudget[], close: (charge: Charge) => Promise<void>, onDetach: () => void) {
    this.#hold = hold;
    this.overBudget = overBudget;
    this.#close = close;
    this.#onDetach = onDetach;
  }

  get tokenId(): number {
    return this.#hold.tokenId;
  }

  get units(): number {
    return this.#hold.units;
  }

  detach(): QuotaHold {
    if (this.#closed) throw new Error('a settled reservation cannot be detached');
    this.#closed = true;
    this.#onDetach();
    return { ...this.#hold };
  }

  async settle(actualUnits: number): Promise<void> {
    assertQuotaUnits('actualUnits', actualUnits);
    if (this.#closed) return;
    this.#closed = true;
    const charge = { units: actualUnits };
    try {
      await this.#close(charge);
    } catch (error) {
      this.#refused = charge;
      throw error;
    }
  }

  async refund(): Promise<void> {
    if (this.#refused !== undefined) this.#refused.units = 0;
    if (this.#closed) return;
    this.#closed = true;
    await this.#close({ units: 0 });
  }
}
