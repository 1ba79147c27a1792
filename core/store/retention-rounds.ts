import type { FastifyBaseLogger } from 'fastify';

/** How often the expired records are removed, how many one removal takes, and how many removals one round runs at most. */
const roundMilliseconds = 60_000;
const batchSize = 500;
const batchesPerRound = 200;
/** The pause between two removals of a round, so requests run in between. */
const pauseMilliseconds = 20;
const secondsPerDay = 86_400;

/** What a log kept for a number of days tells its {@link RetentionRounds}. */
export interface RetentionOptions {
  /** What the records are, for the warning when a round fails (`usage records`, `audit records`). */
  records: string;
  retentionDays: number;
  /** Removes at most `limit` of the oldest records created before `createdBefore` (Unix seconds); resolves with how many went. */
  removeBefore(createdBefore: number, limit: number): Promise<number>;
  /** Now, in Unix seconds. */
  nowSeconds(): number;
  logger: FastifyBaseLogger;
}

/**
 * The retention of a log kept in the store (the usage log, the audit trail): every minute,
 * records older than the retention are removed, the oldest first, in small batches with a
 * pause between them, so a removal never holds the store (or, on SQLite, the event loop) for
 * long. Every instance and worker runs its rounds; the store makes each removal happen once.
 */
export class RetentionRounds {
  readonly #options: RetentionOptions;
  #retentionSeconds: number;
  readonly #timer: NodeJS.Timeout;
  #round: Promise<number> | undefined;
  #closed = false;

  constructor(options: RetentionOptions) {
    this.#options = options;
    this.#retentionSeconds = options.retentionDays * secondsPerDay;
    this.#timer = setInterval(() => void this.removeExpired(), roundMilliseconds);
    this.#timer.unref();
  }

  /** A reload's retention: the next round removes what is older than `days`. */
  setRetentionDays(days: number): void {
    this.#retentionSeconds = days * secondsPerDay;
  }

  /** One round: removes the expired records, a small batch at a time. Rounds never overlap; resolves with how many went. */
  removeExpired(): Promise<number> {
    this.#round ??= this.#removeExpired().finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #removeExpired(): Promise<number> {
    const cutoff = this.#options.nowSeconds() - this.#retentionSeconds;
    let removed = 0;
    try {
      for (let batch = 0; batch < batchesPerRound && !this.#closed; batch += 1) {
        const count = await this.#options.removeBefore(cutoff, batchSize);
        removed += count;
        if (count < batchSize) break;
        await new Promise((resolve) => setTimeout(resolve, pauseMilliseconds));
      }
    } catch (error) {
      this.#options.logger.warn({ err: error }, `could not remove expired ${this.#options.records}; the next round tries again`);
    }
    return removed;
  }

  /** Stops the rounds; resolves once the one running, if any, is over. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#round;
  }
}
