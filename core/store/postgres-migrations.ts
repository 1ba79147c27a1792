import pg from 'pg';

/**
 * The schema's tables and functions, one migration per version, each applied once and in
 * order. `{schema}` stands for the quoted schema name. A later change adds a migration; an
 * applied one is never edited, because databases that ran it keep what it did.
 *
 * Amounts of quota are `bigint`, so balances stay exact beyond 32 bits. Rate buckets and
 * windows keep fractional milliseconds since the epoch as `double precision`, the numbers
 * core/store/rate-bucket.ts computes with. Record keys compare bytewise (`COLLATE "C"`): a
 * namespace is the key range from `<namespace>:` to `<namespace>;`, whatever the database's
 * own collation. A record written with a TTL keeps when it expires on the database's clock,
 * so expired records nobody reads again can be removed (keyv itself only drops one it reads).
 *
 * The rate bucket functions are core/store/rate-bucket.ts in PL/pgSQL, as the Redis driver's
 * are in Lua: each draw or correction is one statement, decided on the database's clock so
 * every instance agrees on the time. They lock the buckets they touch in key order, so two
 * draws on the same buckets wait for each other instead of deadlocking. Their transaction
 * commits without waiting for the WAL flush (`synchronous_commit` off for it alone): a bucket
 * is locked until its draw commits, and every model request of a key or group draws on the
 * same bucket, so a flush per draw would serialize them on the disk. A PostgreSQL crash may
 * forget the draws of its last fraction of a second, which only lets that many more requests
 * through; quota, records and everything else still commit durably.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE {schema}.records (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL,
    expires_at double precision
  );
  CREATE INDEX records_expiry ON {schema}.records (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE {schema}.counters (
    key text PRIMARY KEY,
    value bigint NOT NULL
  );
  CREATE TABLE {schema}.windows (
    key text PRIMARY KEY,
    count bigint NOT NULL,
    reset_at double precision NOT NULL
  );
  CREATE TABLE {schema}.rate_buckets (
    key text COLLATE "C" PRIMARY KEY,
    full_at double precision NOT NULL,
    returned double precision NOT NULL
  );
  CREATE TABLE {schema}.set_members (
    set_key text NOT NULL,
    member text NOT NULL,
    PRIMARY KEY (set_key, member)
  );
  CREATE TABLE {schema}.balances (
    account text PRIMARY KEY,
    remain bigint NOT NULL,
    used bigint NOT NULL
  );

  -- Returns {1, full_at, returned, ...} per draw when every draw fits, else {0, refused, wait}.
  CREATE FUNCTION {schema}.draw_rates(draw_keys text[], amounts double precision[], capacities double precision[], windows double precision[], tolerance double precision)
  RETURNS double precision[] LANGUAGE plpgsql AS $body$
  DECLARE
    now_ms double precision;
    bucket record;
    next_full_at double precision[] := '{}';
    next_returned double precision[] := '{}';
    drawn_full_at double precision;
    wait double precision;
    longest double precision := 0;
    refused integer := -1;
    marks double precision[] := ARRAY[1];
  BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    -- A bucket never drawn on is a row that is full at once; rows exist before they are locked.
    INSERT INTO {schema}.rate_buckets (key, full_at, returned)
      SELECT DISTINCT draw_key, 0, 0 FROM unnest(draw_keys) AS draw_key ORDER BY 1
      ON CONFLICT (key) DO NOTHING;
    PERFORM 1 FROM {schema}.rate_buckets AS locked WHERE locked.key = ANY (draw_keys) ORDER BY locked.key FOR UPDATE;
    now_ms := extract(epoch FROM clock_timestamp()) * 1000;
    FOR draw_index IN 1 .. coalesce(array_length(draw_keys, 1), 0) LOOP
      SELECT stored.full_at, stored.returned INTO bucket FROM {schema}.rate_buckets AS stored WHERE stored.key = draw_keys[draw_index];
      drawn_full_at := greatest(bucket.full_at, now_ms) + amounts[draw_index] * windows[draw_index] / capacities[draw_index];
      wait := drawn_full_at - windows[draw_index] - now_ms;
      IF wait > tolerance AND wait > longest THEN
        longest := wait;
        refused := draw_index - 1;
      END IF;
      next_full_at := next_full_at || drawn_full_at;
      next_returned := next_returned || bucket.returned;
    END LOOP;
    IF refused >= 0 THEN
      RETURN ARRAY[0, refused, longest];
    END IF;
    FOR draw_index IN 1 .. coalesce(array_length(draw_keys, 1), 0) LOOP
      UPDATE {schema}.rate_buckets AS drawn SET full_at = next_full_at[draw_index], returned = next_returned[draw_index] WHERE drawn.key = draw_keys[draw_index];
      marks := marks || next_full_at[draw_index] || next_returned[draw_index];
    END LOOP;
    RETURN marks;
  END
  $body$;

  CREATE FUNCTION {schema}.correct_rate(bucket_key text, delta double precision, capacity double precision, window_ms double precision, mark_full_at double precision, mark_returned double precision, mark_amount double precision)
  RETURNS void LANGUAGE plpgsql AS $body$
  DECLARE
    now_ms double precision;
    refill_interval double precision := window_ms / capacity;
    bucket record;
    credit double precision;
  BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    IF delta > 0 THEN
      -- The clock is read where the row is written, after any wait for its lock: a debt starts now.
      INSERT INTO {schema}.rate_buckets AS indebted (key, full_at, returned)
        VALUES (bucket_key, extract(epoch FROM clock_timestamp()) * 1000 + delta * refill_interval, 0)
        ON CONFLICT (key) DO UPDATE SET full_at = greatest(indebted.full_at, extract(epoch FROM clock_timestamp()) * 1000) + delta * refill_interval;
      RETURN;
    END IF;
    IF delta = 0 THEN
      RETURN;
    END IF;
    SELECT stored.full_at, stored.returned INTO bucket FROM {schema}.rate_buckets AS stored WHERE stored.key = bucket_key FOR UPDATE;
    IF NOT FOUND OR bucket.returned < mark_returned THEN
      RETURN;
    END IF;
    now_ms := extract(epoch FROM clock_timestamp()) * 1000;
    credit := least(least(-delta, mark_amount) * refill_interval, mark_full_at - (bucket.returned - mark_returned) - now_ms);
    IF NOT (credit > 0) THEN
      RETURN;
    END IF;
    UPDATE {schema}.rate_buckets AS corrected SET full_at = bucket.full_at - credit, returned = bucket.returned + credit WHERE corrected.key = bucket_key;
  END
  $body$;
  `,
  // Holds (see StoreBackend.reserve): a lease expiry on the database's clock, NULL for a hold a
  // video task owns. Slots (StoreBackend.acquireSlots): one row per key a slot counts under.
  `
  CREATE TABLE {schema}.holds (
    id text COLLATE "C" PRIMARY KEY,
    account text NOT NULL,
    units bigint NOT NULL,
    owner text NOT NULL,
    expires_at double precision
  );
  CREATE INDEX holds_expiry ON {schema}.holds (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE {schema}.slots (
    key text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    expires_at double precision NOT NULL,
    PRIMARY KEY (key, id)
  );
  CREATE INDEX slots_id ON {schema}.slots (id);

  -- Returns -1 when a slot was taken under every key, else the index of the key that is full.
  -- Each key is locked (a transaction-scoped advisory lock) in key order, so two acquisitions
  -- on the same keys wait for each other instead of deadlocking, and none counts past a limit.
  -- Like a rate draw it commits without waiting for the WAL flush: a crash forgets slots,
  -- which only lets as many more requests in.
  CREATE FUNCTION {schema}.acquire_slots(slot_keys text[], limits bigint[], slot_id text, lease double precision)
  RETURNS integer LANGUAGE plpgsql AS $body$
  DECLARE
    now_ms double precision := (extract(epoch FROM clock_timestamp()) * 1000)::double precision;
    claim record;
    taken bigint;
  BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    FOR claim IN SELECT slot_key, slot_limit, position FROM unnest(slot_keys, limits) WITH ORDINALITY AS claims (slot_key, slot_limit, position) ORDER BY slot_key COLLATE "C" LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended('{schema}.slots:' || claim.slot_key, 0));
      DELETE FROM {schema}.slots WHERE key = claim.slot_key AND expires_at <= now_ms;
      SELECT count(*) INTO taken FROM {schema}.slots WHERE key = claim.slot_key;
      IF taken >= claim.slot_limit THEN
        RETURN claim.position - 1;
      END IF;
    END LOOP;
    INSERT INTO {schema}.slots (key, id, expires_at) SELECT slot_key, slot_id, now_ms + lease FROM unnest(slot_keys) AS slot_key
      ON CONFLICT (key, id) DO UPDATE SET expires_at = excluded.expires_at;
    RETURN -1;
  END
  $body$;
  `,
  // Windows that reset are swept in small batches (sweepWindows); the index finds them
  // without reading the live ones.
  `
  CREATE INDEX windows_reset ON {schema}.windows (reset_at);
  `,
  // The usage log (core/store/postgres-usage-log-store.ts): one row per model request, its
  // attempts as json (kept as written, so a copy gives them back field for field). The indexes serve a user's newest records, the admin's (and the
  // retention's oldest), and a request id.
  `
  CREATE TABLE {schema}.usage_logs (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    created_at bigint NOT NULL,
    type smallint NOT NULL,
    user_id bigint NOT NULL,
    token_id bigint NOT NULL,
    token_name text NOT NULL,
    model_name text NOT NULL,
    upstream_model text NOT NULL,
    operation text NOT NULL,
    client_format text NOT NULL,
    "group" text NOT NULL,
    is_stream boolean NOT NULL,
    prompt_tokens bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    cached_tokens bigint NOT NULL,
    reasoning_tokens bigint NOT NULL,
    quota bigint NOT NULL,
    usage_source text NOT NULL,
    status integer NOT NULL,
    error_code text NOT NULL,
    end_reason text NOT NULL,
    use_time_ms bigint NOT NULL,
    first_byte_ms bigint NOT NULL,
    request_id text NOT NULL,
    task_id text NOT NULL,
    channel text NOT NULL,
    attempts json NOT NULL
  );
  CREATE INDEX usage_logs_user_time ON {schema}.usage_logs (user_id, created_at, id);
  CREATE INDEX usage_logs_time ON {schema}.usage_logs (created_at, id);
  CREATE INDEX usage_logs_request ON {schema}.usage_logs (request_id);
  `,
];

/** The database's clock in milliseconds since the epoch, as SQL: every instance agrees on it. */
export const databaseNow = '(extract(epoch FROM clock_timestamp()) * 1000)::double precision';

/** The schema name as SQL: quoted, so it is taken exactly as configured. */
export function quotedSchema(schema: string): string {
  return pg.escapeIdentifier(schema);
}

/**
 * Creates the schema and its tables when absent and applies the migrations the schema has not
 * had yet, all in one transaction. An advisory lock on the schema's name makes instances that
 * start together take turns: the first migrates, the others find it done.
 */
export async function migratePostgresSchema(pool: pg.Pool, schema: string): Promise<void> {
  const quoted = quotedSchema(schema);
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('model-gateway schema ' || $1))", [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoted}.schema_migrations`);
    const current = applied.rows[0]?.version ?? 0;
    if (current > migrations.length) {
      throw new Error(`the schema "${schema}" was written by a newer gateway (version ${current}; this one knows up to ${migrations.length}); upgrade this gateway`);
    }
    for (let version = current + 1; version <= migrations.length; version += 1) {
      await client.query((migrations[version - 1] as string).replaceAll('{schema}', quoted));
      await client.query(`INSERT INTO ${quoted}.schema_migrations (version) VALUES ($1)`, [version]);
    }
  });
}

/**
 * Runs `work` on one pooled connection between BEGIN and COMMIT. On any failure it rolls back,
 * closes the connection rather than handing it to the next query, and rethrows. A connection
 * lost meanwhile rejects the query in flight; the error event it also emits would otherwise
 * end the process unheard, so it is listened to while the work runs.
 */
export async function inTransaction<Result>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<Result>): Promise<Result> {
  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  let failed = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.removeListener('error', ignore);
    client.release(failed);
  }
}
