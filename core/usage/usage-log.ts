import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import { RetentionRounds } from '../store/retention-rounds.js';
import type { StoreBackend } from '../store/store-backend.js';
import type { UsageLogStore } from './usage-log-store.js';
import type { NewUsageRecord } from './usage-record.js';

/** Records one store write takes at most; this many pending are written at once. */
const batchSize = 500;
/**
 * How long a record waits at most for others to share its write. A write costs about the same
 * for one record as for a hundred (on SQLite each commit rewrites the last page of the table
 * and of each index), so fewer, fuller writes are what keep the log within a few percent of a
 * request's cost (docs/benchmark.md).
 */
const batchWindowMilliseconds = 100;
/** Records kept in memory at most while the store refuses them; past it the oldest are dropped. */
const maximumPendingRecords = 10_000;
const firstRetryMilliseconds = 250;
const longestRetryMilliseconds = 30_000;

/**
 * The usage log's writer and its retention. A request hands its record over with
 * {@link record} and goes on: nothing on the request path waits for the store. A record waits
 * at most 100 ms for others, and is written with them in one batch (of at most 500; 500
 * pending are written at once); those that arrive while a batch is written wait for the next.
 * {@link flush} writes what is pending now (the log API does, before it reads). A batch the
 * store refuses is kept and written again, after 250 ms doubling to 30 s, in order; while the
 * store is away at most 10,000 records wait, and the oldest beyond that are dropped (and
 * counted in a warning). Closing writes what is left.
 *
 * Records older than `logs.retention_days` are removed in the background ({@link RetentionRounds}).
 */
export class UsageLog {
  /** The store's log, which the log API reads. */
  readonly store: UsageLogStore;
  readonly #logger: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #retention: RetentionRounds;
  #pending: NewUsageRecord[] = [];
  #writing: Promise<void> | undefined;
  /** Set while pending records wait for their batch window to end. */
  #windowTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #dropped = 0;
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
    this.#retention = new RetentionRounds({
      records: 'usage records',
      retentionDays: config.logs.retention_days,
      removeBefore: (createdBefore, limit) => this.store.removeBefore(createdBefore, limit),
      nowSeconds: () => this.nowSeconds(),
      logger,
    });
  }

  /** A reload's `logs.retention_days`: the next retention round removes what is older than it. */
  setRetentionDays(days: number): void {
    this.#retention.setRetentionDays(days);
  }

  /** Now, in the Unix seconds of a record's `created_at`. */
  nowSeconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }

  /** Takes a finished request's record; it is written within 100 ms, with the others that came meanwhile. */
  record(record: NewUsageRecord): void {
    if (this.#pending.length >= maximumPendingRecords) {
      this.#pending.shift();
      this.#dropped += 1;
    }
    this.#pending.push(record);
    if (this.#writing !== undefined || this.#retryTimer !== undefined || this.#closed) return;
    if (this.#pending.length >= batchSize) this.#startWriting();
    else this.#openWindow();
  }

  /** Starts the batch window, unless one is open: what is pending is written when it ends. */
  #openWindow(): void {
    this.#windowTimer ??= setTimeout(() => this.#startWriting(), batchWindowMilliseconds).unref();
  }

  /** Resolves once what was handed over so far is written, or could not be (then it waits for a retry). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.#writing !== undefined) await this.#writing;
      else if (this.#pending.length > 0 && this.#retryTimer === undefined && !this.#closed) this.#startWriting();
      else return;
    }
  }

  /** Ends the batch window: writes what is pending, in the next turn (with whatever else this turn hands over). */
  #startWriting(): void {
    clearTimeout(this.#windowTimer);
    this.#windowTimer = undefined;
    this.#writing ??= new Promise<void>((started) => setImmediate(started)).then(() => this.#drain());
  }

  /**
   * Writes what is pending, a batch at a time; a refused batch goes back to the front and waits
   * for a retry. What arrives during the last write waits for its own window.
   */
  async #drain(): Promise<void> {
    try {
      do {
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
      } while (this.#pending.length >= batchSize || (this.#closed && this.#pending.length > 0));
    } finally {
      this.#writing = undefined;
    }
    if (this.#pending.length > 0 && this.#retryTimer === undefined && !this.#closed) this.#openWindow();
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
      this.#startWriting();
    }, wait);
    this.#retryTimer.unref();
  }

  /** One retention round: removes the records older than `logs.retention_days`, a small batch at a time. Rounds never overlap; resolves with how many went. */
  removeExpired(): Promise<number> {
    return this.#retention.removeExpired();
  }

  /** Stops the timers and writes what is pending, once; what the store then refuses is lost, and logged. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    clearTimeout(this.#windowTimer);
    this.#windowTimer = undefined;
    await this.#retention.close();
    await this.flush();
    // Closed, a write takes every batch left in turn and stops at the first the store refuses.
    if (this.#pending.length > 0) this.#writing = this.#drain();
    await this.flush();
    if (this.#pending.length > 0 || this.#dropped > 0) this.#logger.error({ lost: this.#pending.length + this.#dropped }, 'usage records could not be written before the store closed');
  }
}
