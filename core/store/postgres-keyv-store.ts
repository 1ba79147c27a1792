import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter } from 'keyv';
import type pg from 'pg';
import { databaseNow } from './postgres-migrations.js';
import { namespaceRange } from './sqlite-keyv-store.js';

/** How many records {@link PostgresKeyvStore.iterator} reads per statement. */
const iterationPageSize = 100;

type Entry = { key: string; value: string };
type EntryWithTtl = Entry & { ttl?: number | undefined };

/**
 * keyv's store for one namespace, in the `records` table of the gateway's schema and on the
 * backend's pool, so the records share the database, and so the transactions, of the quota and
 * the other primitives ({@link StoreBackend.writeTogether}). `@keyv/postgres` would open a pool
 * of its own and could not write a record in the same statement as a balance. Keys arrive
 * prefixed by keyv (`<namespace>:<key>`) and values serialized by keyv (JSON of
 * `{ value, expires }`); keyv itself drops what has expired when it reads it, and the row
 * keeps its expiry (`expires_at`, on the database's clock) so that the backend can remove
 * expired records nobody reads again.
 *
 * Each call is one statement, committed when it returns. One store per namespace, because keyv
 * writes its namespace into the store it is given, and `clear` and `iterator` act on that
 * namespace.
 */
export class PostgresKeyvStore extends EventEmitter implements KeyvStoreAdapter {
  /** Read by keyv: the `postgres` dialect makes it offer `iterator`. */
  readonly opts: { dialect: 'postgres'; url: string };
  namespace?: string | undefined;
  readonly #pool: pg.Pool;
  readonly #table: string;

  /** `table` is the quoted, schema-qualified name of the records table. */
  constructor(pool: pg.Pool, table: string) {
    super();
    this.#pool = pool;
    this.#table = table;
    this.opts = { dialect: 'postgres', url: 'postgres' };
  }

  async get<Value>(key: string): Promise<Value | undefined> {
    const result = await this.#pool.query<Entry>(`SELECT value FROM ${this.#table} WHERE key = $1`, [key]);
    return result.rows[0]?.value as Value | undefined;
  }

  async getMany<Value>(keys: string[]): Promise<Array<Value | undefined>> {
    const result = await this.#pool.query<Entry>(`SELECT key, value FROM ${this.#table} WHERE key = ANY ($1::text[])`, [keys]);
    const values = new Map(result.rows.map((row) => [row.key, row.value]));
    return keys.map((key) => values.get(key) as Value | undefined);
  }

  async set(key: string, value: string, ttl?: number): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${this.#table} (key, value, expires_at) VALUES ($1, $2, ${databaseNow} + $3::double precision)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [key, value, ttl ?? null],
    );
  }

  async setMany(entries: EntryWithTtl[]): Promise<void> {
    // One statement may not update a row twice: the last entry for a key wins, as it would one by one.
    const latest = new Map(entries.map((entry) => [entry.key, entry]));
    await this.#pool.query(
      `INSERT INTO ${this.#table} (key, value, expires_at)
       SELECT key, value, ${databaseNow} + ttl FROM unnest($1::text[], $2::text[], $3::double precision[]) AS entry (key, value, ttl)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [[...latest.keys()], [...latest.values()].map((entry) => entry.value), [...latest.values()].map((entry) => entry.ttl ?? null)],
    );
  }

  async has(key: string): Promise<boolean> {
    const result = await this.#pool.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${this.#table} WHERE key = $1) AS found`, [key]);
    return result.rows[0]?.found === true;
  }

  async delete(key: string): Promise<boolean> {
    return ((await this.#pool.query(`DELETE FROM ${this.#table} WHERE key = $1`, [key])).rowCount ?? 0) > 0;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    return ((await this.#pool.query(`DELETE FROM ${this.#table} WHERE key = ANY ($1::text[])`, [keys])).rowCount ?? 0) > 0;
  }

  async clear(): Promise<void> {
    const [from, to] = namespaceRange(this.namespace);
    await this.#pool.query(`DELETE FROM ${this.#table} WHERE key >= $1 AND key < $2`, [from, to]);
  }

  /** Every record of the namespace, in key order, read a page at a time (no cursor holds a connection between pages). */
  async *iterator<Value>(namespace?: string): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void> {
    const [from, to] = namespaceRange(namespace);
    let after = '';
    for (;;) {
      const { rows } = await this.#pool.query<Entry>(
        `SELECT key, value FROM ${this.#table} WHERE key >= $1 AND key < $2 AND key > $3 ORDER BY key LIMIT $4`,
        [from, to, after, iterationPageSize],
      );
      for (const row of rows) yield [row.key, row.value as Awaited<Value>];
      if (rows.length < iterationPageSize) return;
      after = (rows[rows.length - 1] as Entry).key;
    }
  }
}
