import pg from 'pg';

interface PendingStatement {
  /** The row the statement locks: a batch runs its statements in the order of their accounts. */
  account: string;
  text: string;
  values: unknown[];
  resolve: (result: pg.QueryResult) => void;
  reject: (error: unknown) => void;
}

/** Statements one transaction takes at most, so that no batch holds its row locks for long. */
const maximumBatchSize = 500;

/**
 * Runs the ledger statements that arrive while a batch commits together in the next
 * transaction, on one pooled connection: one durable commit (one WAL flush) for the whole
 * batch instead of one each, which capped a hot token at about 300 requests a second because
 * each waited for its own flush while holding the balance row.
 *
 * Each call keeps its own guarded statement and its own result: a batch runs them in arrival
 * order for each account, so each sees the ones before it as if run alone. Across accounts the
 * batch runs them in the order of the account names, so every process (and every batch) locks
 * balance rows in the same order and two batches touching the same accounts never deadlock.
 * A batch goes in one round trip (BEGIN, its statements with their values written in, COMMIT).
 * No call resolves before its batch committed. A statement the database refuses for its values
 * (out of range) rejects that call alone: the transaction is rolled back, run again one
 * statement at a time to find it, and the others go again in the next batch. Anything else (a
 * lost connection, a deadlock, a failed commit) rejects every call of the batch with that
 * error, the error a single statement would have been rejected with.
 */
export class PostgresGroupCommit {
  readonly #pool: pg.Pool;
  #pending: PendingStatement[] = [];
  #running: Promise<void> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Runs one statement, which locks at most the balance row of `account`, in the next batch; resolves with its result once committed. */
  run<Row extends pg.QueryResultRow>(account: string, text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    return new Promise<pg.QueryResult<Row>>((resolve, reject) => {
      this.#pending.push({ account, text, values, resolve: resolve as (result: pg.QueryResult) => void, reject });
      // Started in the next turn, so that the calls of this turn join the first batch too.
      this.#running ??= new Promise<void>((started) => setImmediate(started)).then(() => this.#drain());
    });
  }

  /** Resolves once every call made so far has been answered; the backend waits for it before it closes its pool. */
  async settled(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /** Commits batches until nothing is pending: the calls that arrived during a commit make the next batch. */
  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, maximumBatchSize);
        const retry = await this.#commit(batch);
        this.#pending.unshift(...retry);
      }
    } finally {
      this.#running = undefined;
    }
  }

  /** Runs `batch` in one transaction and answers its calls; returns the calls to run again (after one was refused on its own). */
  async #commit(batch: PendingStatement[]): Promise<PendingStatement[]> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return [];
    }
    // The server may end the connection between two statements (a restart,
    // pg_terminate_backend): the client then emits an error, which unheard would end the
    // process; the statement or the commit that follows is rejected and says it.
    client.on('error', ignoreError);
    // Stable: calls on one account keep their arrival order.
    const ordered = batch.map((entry, index) => ({ entry, index })).sort((a, b) => (a.entry.account < b.entry.account ? -1 : a.entry.account > b.entry.account ? 1 : a.index - b.index));
    const results = new Array<pg.QueryResult>(batch.length);
    // First the whole transaction in one round trip: one statement after another would make
    // the batch wait a round trip each, which then bounds a hot token instead of the flush.
    try {
      const text = ['BEGIN', ...ordered.map(({ entry }) => inlined(client, entry.text, entry.values)), 'COMMIT'].join(';\n');
      const replies = (await client.query(text)) as unknown as pg.QueryResult[];
      ordered.forEach(({ index }, position) => (results[index] = replies[position + 1] as pg.QueryResult));
    } catch (error) {
      const rolledBack = await rollBack(client);
      // The database refused a statement of the batch and said which only by its message:
      // run the statements again one by one, to refuse that call alone.
      if (rolledBack && refusedStatement(error)) return this.#commitOneByOne(client, batch, ordered);
      return this.#fail(client, batch, undefined, rolledBack, error);
    }
    client.removeListener('error', ignoreError);
    client.release();
    batch.forEach((entry, index) => entry.resolve(results[index] as pg.QueryResult));
    return [];
  }

  /** The batch's statements one round trip each, so that the one the database refuses is known. */
  async #commitOneByOne(client: pg.PoolClient, batch: PendingStatement[], ordered: ReadonlyArray<{ entry: PendingStatement; index: number }>): Promise<PendingStatement[]> {
    const results = new Array<pg.QueryResult>(batch.length);
    let current: PendingStatement | undefined;
    try {
      await client.query('BEGIN');
      for (const { entry, index } of ordered) {
        current = entry;
        results[index] = await client.query(entry.text, entry.values);
      }
      current = undefined;
      await client.query('COMMIT');
    } catch (error) {
      return this.#fail(client, batch, current, await rollBack(client), error);
    }
    client.removeListener('error', ignoreError);
    client.release();
    batch.forEach((entry, index) => entry.resolve(results[index] as pg.QueryResult));
    return [];
  }

  /**
   * After `error`: when the database refused one statement and the connection still rolls
   * back, that call alone is rejected and the others are returned to run again; otherwise (the
   * connection is lost, the commit failed) every call of the batch is rejected with `error`.
   */
  #fail(client: pg.PoolClient, batch: PendingStatement[], refused: PendingStatement | undefined, rolledBack: boolean, error: unknown): PendingStatement[] {
    // A connection that did not roll back is discarded, and keeps the listener for the errors it may still emit.
    if (rolledBack) client.removeListener('error', ignoreError);
    client.release(rolledBack ? undefined : true);
    if (refused !== undefined && rolledBack && refusedStatement(error)) {
      refused.reject(error);
      return batch.filter((entry) => entry !== refused);
    }
    for (const entry of batch) entry.reject(error);
    return [];
  }
}

/**
 * Whether the database refused a statement for its values (SQLSTATE class 22, data
 * exception, or 23, integrity constraint), which another call of the batch would not have
 * caused. Anything else (a deadlock, a serialization failure, a lost connection) fails the
 * batch as a whole.
 */
function refusedStatement(error: unknown): boolean {
  return error instanceof pg.DatabaseError && (error.code?.startsWith('22') === true || error.code?.startsWith('23') === true);
}

/** Ends the transaction on `client`; false when the connection cannot (it is lost). */
function rollBack(client: pg.PoolClient): Promise<boolean> {
  return client.query('ROLLBACK').then(
    () => true,
    () => false,
  );
}

/**
 * `text` with its parameters `$1`, `$2`… written in as quoted literals, for a round trip of
 * several statements (the simple query protocol takes no parameters). The statements cast
 * numbers where a type matters (`$2::bigint`), and a quoted literal takes the type its place
 * needs, as a parameter does.
 */
function inlined(client: pg.PoolClient, text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, position: string) => client.escapeLiteral(String(values[Number(position) - 1])));
}

/** Heard while a batch holds its connection; the batch learns of the loss from its next query. */
function ignoreError(): void {}
