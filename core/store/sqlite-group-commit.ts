import type Database from 'better-sqlite3';

interface PendingWork {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Runs the writes of one event-loop turn in one IMMEDIATE transaction: one WAL commit for
 * every request that reserved or settled in that turn, instead of one each, which was the
 * largest single cost of a request in the benchmark's profile. Each write still sees the ones
 * before it, in order, as if run alone; none is acknowledged before the commit succeeded, and
 * if the commit fails, every write of the batch is refused.
 */
export class SqliteGroupCommit {
  readonly #transaction: Database.Transaction<(batch: readonly PendingWork[]) => Outcome[]>;
  #pending: PendingWork[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  constructor(database: Database.Database) {
    this.#transaction = database.transaction((batch: readonly PendingWork[]) =>
      batch.map((entry): Outcome => {
        try {
          return { ok: true, value: entry.work() };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  /** Runs `work` (synchronous statements) in the next group commit and resolves with its result once committed. */
  run<Value>(work: () => Value): Promise<Value> {
    return new Promise<Value>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Commits what is pending now; called by the next turn, and before the database closes. */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.#transaction.immediate(batch);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    batch.forEach((entry, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  }
}
