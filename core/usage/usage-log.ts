import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import type { StoreBackend } from '../store/store-backend.js';
import type { UsageLogStore } from './usage-log-store.js';
import type { NewUsageRecord } from './usage-record.js';

/** Records one store write takes at most. */
const batchSize = 500;
/** Records kept in memory at most while the store refuses them; past it the oldest are dropped. */
const maximumPendingRecords = 10_000;
const firstRetryMilliseconds = 250;
const longestRetryMilliseconds = 30_000;
/** How often the expired records are removed, how many one removal takes, and how many removals one round runs at most. */
const retentionRoundMilliseconds = 60_000;
const retentionBatchSize = 500;
const retentionBatchesPerRound = 200;
/** The pause between two removals of a round, so requests run in between. */
const retentionPauseMilliseconds = 20;
const secondsPerDay = 86_400;

/**
 * The usage log's writer and its retention. A request hands its record over with
 * {@link record} and goes on: nothing on the request path waits for the store. The records of
 * one event-loop turn are written together in the next one, as one batch (of at most 500);
 * those that arrive while a batch is written go in the batch after it (a group commit, as the
 * quota writes are). A batch the store refuses is kept and written again, after 250 ms
 * doubling to 30 s, in order; while the store is away at most 10,000 records wait, and the
 * oldest beyond that are dropped (and counted in a warning). Closing writes what is left.
 *
 * Every minute, records older than `logs.retention_days` are removed, the oldest first, in
 * small batches with a pause between them, so a removal never holds the store (or, on SQLite,
 * the event loop) for long. Every instance and worker runs it; the store makes each removal
 * happen once.
 */
export class UsageLog {
  /** The store's log, which the log API reads. */
  readonly store: UsageLogStore;
  readonly #logger: FastifyBaseLogger;
  readonly #clock: Clock;
  #retentionSeconds: number;
  readonly #retentionTimer: NodeJS.Timeout;
  #pending: NewUsageRecord[] = [];
  #writing: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #dropped = 0;
  #round: Promise<number> | undefined;
  #closed = false;

  constructor(
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.config) config: GatewayConfig,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
    @inject(InjectionTokens.clock) clock: Clock,
  ) {
    this.store = backend.usageLog();
    this.#logger = logger;
    this.#clock = clock;
    this.#retentionSeconds = config.logs.retention_days * secondsPerDay;
    this.#retentionTimer = setInterval(() => void this.removeExpired(), retentionRoundMilliseconds);
    this.#retentionTimer.unref();
  }

  /** A reload's `logs.retention_days`: the next retention round removes what is older than it. */
  setRetentionDays(days: number): void {
    this.#retentionSeconds = days * secondsPerDay;
  }

  /** Now, in the Unix seconds of a record's `created_at`. */
  nowSeconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }

  /** Takes a finished request's record; it is written in the next turn, with the others of this one. */
  record(record: NewUsageRecord): void {
    if (this.#pending.length >= maximumPendingRecords) {
      this.#pending.shift();
      this.#dropped += 1;
    }
    this.#pending.push(record);
    if (this.#writing === undefined && this.#retryTimer === undefined && !this.#closed) {
      this.#writing = new Promise<void>((started) => setImmediate(started)).then(() => this.#drain());
    }
  }

  /** Resolves once what was handed over so far is written, or could not be (then it waits for a retry). */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  /** Writes batches until nothing is pending; a refused batch goes back to the front and waits for a retry. */
  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, batchSize);
        try {
          await this.store.append(batch);
        } catch (error) {
          this.#refused(batch, error);
          return;
        }
        if (this.#failures > 0 || this.#dropped > 0) this.#logger.info({ dropped: this.#dropped }, 'the usage log is written again');
        this.#failures = 0;
        this.#dropped = 0;
      }
    } finally {
      this.#writing = undefined;
    }
  }

  #refused(batch: NewUsageRecord[], error: unknown): void {
    this.#pending = [...batch, ...this.#pending];
    const excess = this.#pending.length - maximumPendingRecords;
    if (excess > 0) {
      this.#pending.splice(0, excess);
      this.#dropped += excess;
    }
    if (this.#closed) return;
    const wait = Math.min(firstRetryMilliseconds * 2 ** this.#failures, longestRetryMilliseconds);
    // One warning when the store starts refusing, then one each time the wait has grown to its longest.
    if (this.#failures === 0 || wait === longestRetryMilliseconds) {
      this.#logger.warn({ err: error, pending: this.#pending.length, dropped: this.#dropped, retryInMilliseconds: wait }, 'could not write the usage log; will try again');
    }
    this.#failures += 1;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#writing ??= this.#drain();
    }, wait);
    this.#retryTimer.unref();
  }

  /** One retention round: removes the records older than `logs.retention_days`, a small batch at a time. Rounds never overlap; resolves with how many went. */
  removeExpired(): Promise<number> {
    this.#round ??= this.#removeExpired().finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #removeExpired(): Promise<number> {
    const cutoff = this.nowSeconds() - this.#retentionSeconds;
    let removed = 0;
    try {
      for (let batch = 0; batch < retentionBatchesPerRound && !this.#closed; batch += 1) {
        const count = await this.store.removeBefore(cutoff, retentionBatchSize);
        removed += count;
        if (count < retentionBatchSize) break;
        await new Promise((resolve) => setTimeout(resolve, retentionPauseMilliseconds));
      }
    } catch (error) {
      this.#logger.warn({ err: error }, 'could not remove expired usage records; the next round tries again');
    }
    return removed;
  }

  /** Stops the timers and writes what is pending, once; what the store then refuses is lost, and logged. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#retentionTimer);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    await this.#round;
    await this.flush();
    if (this.#pending.length > 0) this.#writing = this.#drain();
    await this.flush();
    if (this.#pending.length > 0 || this.#dropped > 0) this.#logger.error({ lost: this.#pending.length + this.#dropped }, 'usage records could not be written before the store closed');
  }
}
