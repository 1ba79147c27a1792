import type { FastifyBaseLogger } from 'fastify';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import { insufficientQuota } from '../errors/error-codes.js';
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
   * Charges the request's actual cost (a non-negative integer of units) and gives back the
   * rest of the hold. A cost above the hold takes at most what the token has left.
   */
  settle(actualUnits: number): Promise<void>;
  /** Gives back the whole hold, for a request that failed and delivered nothing. */
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
}

/**
 * Reserves, settles and refunds token quota on the store's atomic balance primitives, so
 * concurrent requests (in this process or any other sharing the store) never spend the same
 * units twice and `remain_quota` never goes below 0. `used_quota` grows by exactly what is
 * charged, so the two change together. A limited token whose remaining units reach 0 is
 * stored with status 4 (exhausted); unlimited tokens hold nothing but still count usage.
 */
export class QuotaLedger {
  readonly #backend: StoreBackend;
  readonly #tokens: TokenRepository;
  readonly #logger: FastifyBaseLogger;
  /** Open reservations per token in this process; see {@link #close}. */
  readonly #openReservations = new Map<number, number>();

  constructor(
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.tokenRepository) tokens: TokenRepository,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
  ) {
    this.#backend = backend;
    this.#tokens = tokens;
    this.#logger = logger;
  }

  /**
   * Holds `units` (a non-negative integer) of the token's quota for one request. Throws 402
   * `insufficient_quota` when the token has fewer units left; an unlimited token holds
   * nothing, but the store must still answer (503 `service_unavailable` when it cannot).
   */
  async reserve(token: TokenView, units: number): Promise<Reservation> {
    assertQuotaUnits('units', units);
    if (token.unlimited_quota) {
      // Nothing is held, but the store must answer (a read of the balance) before the
      // upstream is called, so with storage down an unlimited token fails closed like the
      // others instead of having work done whose usage cannot be recorded.
      await this.#backend.readBalances([tokenBalanceAccount(token.id)]);
      return new LedgerReservation({ tokenId: token.id, units: 0, unlimited: true }, (actualUnits) => this.settleHold({ tokenId: token.id, units: 0, unlimited: true }, actualUnits), () => {});
    }
    const reserved = await this.#backend.reserve(tokenBalanceAccount(token.id), units);
    if (!reserved.granted) {
      throw insufficientQuota(
        `this request needs ${units} quota units but the token has ${reserved.remain} left; raise remain_quota or set unlimited_quota`,
      );
    }
    this.#openReservations.set(token.id, (this.#openReservations.get(token.id) ?? 0) + 1);
    const hold = { tokenId: token.id, units, unlimited: false };
    return new LedgerReservation(
      hold,
      (actualUnits) => {
        this.#forget(token.id);
        return this.#close(token.id, units, actualUnits);
      },
      () => this.#forget(token.id),
    );
  }

  /**
   * Settles a detached hold: charges `actualUnits` (0 refunds it all) and gives back the rest.
   * The caller makes sure this happens once per hold (a task claims its settlement first).
   */
  async settleHold(hold: QuotaHold, actualUnits: number): Promise<void> {
    assertQuotaUnits('actualUnits', actualUnits);
    if (hold.unlimited) {
      if (actualUnits > 0) await this.#backend.addUsed(tokenBalanceAccount(hold.tokenId), actualUnits);
      return;
    }
    await this.#close(hold.tokenId, hold.units, actualUnits);
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
  async #close(tokenId: number, reserved: number, actualUnits: number): Promise<void> {
    const settled = await this.#backend.settle(tokenBalanceAccount(tokenId), reserved, actualUnits);
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
      const givenBack = reserved - settled.charged;
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

/** A {@link Reservation} that runs `close` once, with the actual cost or 0 for a refund, unless it is detached first. */
class LedgerReservation implements Reservation {
  readonly #hold: QuotaHold;
  readonly #close: (actualUnits: number) => Promise<void>;
  readonly #onDetach: () => void;
  #closed = false;

  constructor(hold: QuotaHold, close: (actualUnits: number) => Promise<void>, onDetach: () => void) {
    this.#hold = hold;
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
    await this.#close(actualUnits);
  }

  async refund(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#close(0);
  }
}
