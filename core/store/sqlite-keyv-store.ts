import { EventEmitter } from 'node:events';
import type Database from 'better-sqlite3';
import type { KeyvStoreAdapter } from 'keyv';
import type { SqliteGroupCommit } from './sqlite-group-commit.js';

/** How many records {@link SqliteKeyvStore.iterator} reads per statement. */
const iterationPageSize = 100;

type Entry = { key: string; value: string };

/** The statements every namespace's store shares, prepared once per connection. */
export interface RecordStatements {
  get: Database.Statement<[string], string>;
  getMany: Database.Statement<[string], Entry>;
  set: Database.Statement<[string, string]>;
  has: Database.Statement<[string], number>;
  delete: Database.Statement<[string]>;
  deleteMany: Database.Statement<[string]>;
  clear: Database.Statement<[string, string]>;
  page: Database.Statement<[{ from: string; to: string; after: string; limit: number }], Entry>;
}

/** Prepares the record statements on the table `records (key TEXT PRIMARY KEY, value TEXT)`. */
export function prepareRecordStatements(database: Database.Database): RecordStatements {
  return {
    get: database.prepare<[string], string>('SELECT value FROM records WHERE key = ?').pluck(),
    getMany: database.prepare<[string], Entry>('SELECT key, value FROM records WHERE key IN (SELECT value FROM json_each(?))'),
    set: database.prepare<[string, string]>('INSERT INTO records (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    has: database.prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM records WHERE key = ?)').pluck(),
    delete: database.prepare<[string]>('DELETE FROM records WHERE key = ?'),
    deleteMany: database.prepare<[string]>('DELETE FROM records WHERE key IN (SELECT value FROM json_each(?))'),
    // A namespace's keys are those from "<namespace>:" up to, not including, "<namespace>;"
    // (';' follows ':'): a range on the primary key, with no LIKE pattern to escape.
    clear: database.prepare<[string, string]>('DELETE FROM records WHERE key >= ? AND key < ?'),
    page: database.prepare<[{ from: string; to: string; after: string; limit: number }], Entry>(
      'SELECT key, value FROM records WHERE key >= @from AND key < @to AND key > @after ORDER BY key LIMIT @limit',
    ),
  };
}

/**
 * keyv's store for one namespace, on the gateway's one SQLite connection: the records share
 * the database, and so the transactions, of the quota and the other primitives. Keys arrive
 * prefixed by keyv (`<namespace>:<key>`) and values serialized by keyv (JSON of
 * `{ value, expires }`), exactly as `@keyv/sqlite` stored them, so a data directory written by
 * the earlier driver reads the same. keyv itself drops what has expired when it reads it.
 *
 * Reads are one statement each, on the calling thread. Writes join the group commit of their
 * event-loop turn ({@link SqliteGroupCommit}), beside the quota writes: one WAL commit for
 * every record the turn wrote (a translated Responses answer keeps its conversation on every
 * request, and a commit of its own was the largest single cost of that request in the
 * benchmark's profile). A write resolves once committed, so whoever awaited it, and anyone
 * reading after that, finds it; writes commit in the order they were made. WAL with
 * `synchronous=NORMAL`, like the primitives. One store per namespace, because keyv writes its
 * namespace into the store it is given, and `clear` and `iterator` act on that namespace.
 */
export class SqliteKeyvStore extends EventEmitter implements KeyvStoreAdapter {
  /** Read by keyv: the `sqlite` dialect makes it offer `iterator`. */
  readonly opts: { dialect: 'sqlite'; url: string };
  namespace?: string | undefined;
  readonly #statements: RecordStatements;
  readonly #groupCommit: SqliteGroupCommit;

  constructor(statements: RecordStatements, groupCommit: SqliteGroupCommit, file: string) {
    super();
    this.#statements = statements;
    this.#groupCommit = groupCommit;
    this.opts = { dialect: 'sqlite', url: `sqlite://${file}` };
  }

  async get<Value>(key: string): Promise<Value | undefined> {
    return this.#statements.get.get(key) as Value | undefined;
  }

  async getMany<Value>(keys: string[]): Promise<Array<Value | undefined>> {
    const values = new Map(this.#statements.getMany.all(JSON.stringify(keys)).map((row) => [row.key, row.value]));
    return keys.map((key) => values.get(key) as Value | undefined);
  }

  async set(key: string, value: string): Promise<void> {
    await this.#groupCommit.run(() => this.#statements.set.run(key, value));
  }

  async setMany(entries: Entry[]): Promise<void> {
    const set = this.#statements.set;
    // Inside the group's transaction: all of them or, when one fails, none.
    await this.#groupCommit.run(() => set.database.transaction(() => {
      for (const entry of entries) set.run(entry.key, entry.value);
    })());
  }

  async has(key: string): Promise<boolean> {
    return this.#statements.has.get(key) === 1;
  }

  async delete(key: string): Promise<boolean> {
    return this.#groupCommit.run(() => this.#statements.delete.run(key).changes > 0);
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    return this.#groupCommit.run(() => this.#statements.deleteMany.run(JSON.stringify(keys)).changes > 0);
  }

  async clear(): Promise<void> {
    const [from, to] = namespaceRange(this.namespace);
    await this.#groupCommit.run(() => this.#statements.clear.run(from, to));
  }

  /**
   * Every record of the namespace, in key order, read a page at a time: a statement left open
   * across an `await` would keep the shared connection busy for every other caller.
   */
  async *iterator<Value>(namespace?: string): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void> {
    const [from, to] = namespaceRange(namespace);
    let after = '';
    for (;;) {
      const rows = this.#statements.page.all({ from, to, after, limit: iterationPageSize });
      for (const row of rows) yield [row.key, row.value as Awaited<Value>];
      if (rows.length < iterationPageSize) return;
      after = (rows[rows.length - 1] as Entry).key;
    }
  }
}

/**
 * The key range of a namespace's records, `[from, to)` in bytewise order (';' follows ':');
 * without a namespace, every key. The SQL drivers share it: both keep keyv's own keys.
 */
export function namespaceRange(namespace: string | undefined): [string, string] {
  if (namespace === undefined || namespace === '') return ['', '\u{10FFFF}'];
  return [`${namespace}:`, `${namespace};`];
}
