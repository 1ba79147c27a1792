import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import { randomAlphanumeric } from '../security/random-string.js';
import type { HoldLease, ReturnedHold, SlotLease, StoreBackend } from './store-backend.js';

/** How many expired holds one sweep gives back at most, and how many sweeps one round runs at most. */
const sweepBatchSize = 100;
const sweepsPerRound = 10;
/** How many reset windows one statement removes at most, and how many statements one round runs at most. */
const windowSweepBatchSize = 500;
const windowSweepsPerRound = 4;

/**
 * This instance's leases on the store: the holds of its open reservations and its concurrency
 * slots. Every third of `storage.lease_seconds` it renews all of them in one write (never a
 * write per request), so a long stream keeps its hold, and then sweeps: it gives back, in
 * small batches, the holds of any instance whose leases ran out (the instance died, or could
 * not reach the store for a whole lease). Every instance sweeps; the store makes each return
 * happen once. Slots need no sweep: an expired slot simply stops counting. Last, it removes
 * fixed windows that have reset ({@link StoreBackend.sweepWindows}), a few small batches a
 * round so no request waits behind a long statement: their keys are chosen by clients (each
 * address that failed to authenticate), and would otherwise stay in the store forever.
 */
export class LeaseKeeper {
  /** This instance's name on its holds and slots. */
  readonly owner = `instance-${randomAlphanumeric(16)}`;
  readonly leaseMilliseconds: number;
  readonly #backend: StoreBackend;
  readonly #logger: FastifyBaseLogger;
  readonly #holds = new Set<string>();
  readonly #slots = new Map<string, SlotLease>();
  readonly #returnedListeners: Array<(holds: readonly ReturnedHold[]) => void> = [];
  readonly #timer: NodeJS.Timeout;
  #leases = 0;
  #round: Promise<void> | undefined;

  constructor(
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.config) config: GatewayConfig,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
  ) {
    this.#backend = backend;
    this.#logger = logger;
    this.leaseMilliseconds = config.storage.lease_seconds * 1000;
    this.#timer = setInterval(() => void this.renewAndSweep(), Math.max(1, Math.floor(this.leaseMilliseconds / 3)));
    this.#timer.unref();
  }

  /** A fresh lease for one hold or slot of this instance; keep it with {@link keepHold} or {@link keepSlot}. */
  lease(): HoldLease {
    this.#leases += 1;
    return { id: `${this.owner}-${this.#leases}`, owner: this.owner, leaseMilliseconds: this.leaseMilliseconds };
  }

  /** Renews the hold until {@link dropHold}. */
  keepHold(id: string): void {
    this.#holds.add(id);
  }

  dropHold(id: string): void {
    this.#holds.delete(id);
  }

  /** Renews the slot until {@link dropSlot}. */
  keepSlot(slot: SlotLease): void {
    this.#slots.set(slot.id, slot);
  }

  dropSlot(id: string): void {
    this.#slots.delete(id);
  }

  /** Hears what each sweep gave back (a token's balance may have come back from 0). */
  onReturned(listener: (holds: readonly ReturnedHold[]) => void): void {
    this.#returnedListeners.push(listener);
  }

  /** One round: renew every lease of this instance in one write, then sweep expired holds and reset windows. Rounds never overlap. */
  renewAndSweep(): Promise<void> {
    this.#round ??= this.#renewAndSweep().finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #renewAndSweep(): Promise<void> {
    if (this.#holds.size > 0 || this.#slots.size > 0) {
      try {
        await this.#backend.renewLeases({ holds: [...this.#holds], slots: [...this.#slots.values()] }, this.leaseMilliseconds);
      } catch (error) {
        // Tried again next round; a lease survives two missed renewals.
        this.#logger.warn({ err: error, holds: this.#holds.size, slots: this.#slots.size }, 'could not renew the leases of open requests');
      }
    }
    try {
      for (let sweep = 0; sweep < sweepsPerRound; sweep += 1) {
        const returned = await this.#backend.sweepHolds(sweepBatchSize);
        if (returned.length > 0) {
          this.#logger.warn({ holds: returned.length, units: returned.reduce((sum, hold) => sum + hold.units, 0) }, 'gave back quota held by requests whose instance stopped renewing its leases');
          for (const listener of this.#returnedListeners) listener(returned);
        }
        if (returned.length < sweepBatchSize) break;
      }
    } catch (error) {
      this.#logger.warn({ err: error }, 'could not sweep expired quota holds; will retry');
    }
    try {
      for (let sweep = 0; sweep < windowSweepsPerRound; sweep += 1) {
        if ((await this.#backend.sweepWindows(windowSweepBatchSize)) < windowSweepBatchSize) break;
      }
    } catch (error) {
      this.#logger.warn({ err: error }, 'could not remove reset rate windows; will retry');
    }
  }

  /** Stops renewing and sweeping; this instance's leases then run out unless settled first. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#round;
  }
}
