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
  // Budget windows (StoreBackend.reserve with a BudgetClaim): what each period's window
  // counts, and the windows a hold was counted in (a table beside holds, which keep their
  // shape). A window is written only by these functions, each in a transaction of its own
  // outside the group commit, which first takes a transaction-scoped advisory lock per window
  // in the order of the locks' numbers, then the balance row: every writer of a window waits
  // for the one before it (reads included), and two of them never wait on each other in a
  // circle, nor on a group-committed batch, which locks balance rows only.
  `
  CREATE TABLE {schema}.budget_windows (
    key text COLLATE "C" PRIMARY KEY,
    used bigint NOT NULL,
    ends_at bigint NOT NULL
  );
  CREATE INDEX budget_windows_end ON {schema}.budget_windows (ends_at);
  CREATE TABLE {schema}.hold_budgets (
    id text COLLATE "C" PRIMARY KEY,
    windows text[] NOT NULL,
    units bigint NOT NULL
  );

  CREATE FUNCTION {schema}.lock_budget_windows(window_keys text[])
  RETURNS void LANGUAGE plpgsql AS $body$
  DECLARE
    lock_number bigint;
  BEGIN
    FOR lock_number IN SELECT DISTINCT hashtextextended('{schema} budget ' || window_key, 0) FROM unnest(window_keys) AS window_key ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(lock_number);
    END LOOP;
  END
  $body$;

  -- Returns granted, what the balance has left, the index of the hard window that refused
  -- (-1 for none) with its count, and each window's count after a granted reservation.
  CREATE FUNCTION {schema}.reserve_in_budget(
    reserve_account text, amount bigint, hold_id text, hold_owner text, lease double precision, unlimited boolean,
    window_keys text[], window_limits bigint[], window_hard boolean[], window_ends bigint[]
  )
  RETURNS TABLE (granted boolean, remain bigint, refused integer, refused_used bigint, counts bigint[]) LANGUAGE plpgsql AS $body$
  DECLARE
    left_units bigint;
    counted bigint;
    after bigint[] := '{}';
  BEGIN
    PERFORM {schema}.lock_budget_windows(window_keys);
    SELECT stored.remain INTO left_units FROM {schema}.balances AS stored WHERE stored.account = reserve_account FOR UPDATE;
    IF NOT unlimited AND (left_units IS NULL OR left_units < amount) THEN
      RETURN QUERY SELECT false, coalesce(left_units, 0::bigint), -1, 0::bigint, NULL::bigint[];
      RETURN;
    END IF;
    FOR position IN 1 .. cardinality(window_keys) LOOP
      SELECT stored.used INTO counted FROM {schema}.budget_windows AS stored WHERE stored.key = window_keys[position];
      counted := coalesce(counted, 0);
      IF window_hard[position] AND counted + amount > window_limits[position] THEN
        RETURN QUERY SELECT false, coalesce(left_units, 0::bigint), position - 1, counted, NULL::bigint[];
        RETURN;
      END IF;
    END LOOP;
    IF NOT unlimited AND amount > 0 THEN
      UPDATE {schema}.balances AS stored SET remain = stored.remain - amount WHERE stored.account = reserve_account RETURNING stored.remain INTO left_units;
    END IF;
    FOR position IN 1 .. cardinality(window_keys) LOOP
      INSERT INTO {schema}.budget_windows AS stored (key, used, ends_at) VALUES (window_keys[position], amount, window_ends[position])
        ON CONFLICT (key) DO UPDATE SET used = stored.used + excluded.used RETURNING stored.used INTO counted;
      after := after || counted;
    END LOOP;
    INSERT INTO {schema}.holds (id, account, units, owner, expires_at)
      VALUES (hold_id, reserve_account, CASE WHEN unlimited THEN 0 ELSE amount END, hold_owner, extract(epoch FROM clock_timestamp()) * 1000 + lease);
    INSERT INTO {schema}.hold_budgets (id, windows, units) VALUES (hold_id, window_keys, amount);
    RETURN QUERY SELECT true, coalesce(left_units, 0::bigint), -1, 0::bigint, after;
  END
  $body$;

  -- Settles (or, with sweep, gives back once its lease ran out) a hold reserved in budget
  -- windows, as StoreBackend.settle says; returns no row when sweep finds the hold gone or
  -- still leased.
  CREATE FUNCTION {schema}.settle_in_budget(settle_account text, reserved bigint, actual bigint, hold_id text, unlimited boolean, sweep boolean)
  RETURNS TABLE (remain bigint, used bigint, charged bigint, held boolean) LANGUAGE plpgsql AS $body$
  DECLARE
    budget_keys text[];
    budget_units bigint;
    budgeted boolean;
    gone_units bigint;
    was_held boolean;
    balance_remain bigint;
    has_balance boolean;
    given bigint;
    charge bigint;
  BEGIN
    SELECT stored.windows, stored.units INTO budget_keys, budget_units FROM {schema}.hold_budgets AS stored WHERE stored.id = hold_id;
    budgeted := FOUND;
    IF budgeted THEN
      PERFORM {schema}.lock_budget_windows(budget_keys);
    END IF;
    DELETE FROM {schema}.holds AS stored WHERE stored.id = hold_id AND (NOT sweep OR stored.expires_at <= extract(epoch FROM clock_timestamp()) * 1000) RETURNING stored.units INTO gone_units;
    was_held := FOUND;
    IF sweep AND NOT was_held THEN
      RETURN;
    END IF;
    -- Removed with its hold: a hold another settlement or sweep removed first finds none here.
    IF was_held THEN
      DELETE FROM {schema}.hold_budgets AS stored WHERE stored.id = hold_id;
    END IF;
    IF sweep THEN
      reserved := gone_units;
    END IF;
    given := CASE WHEN was_held THEN reserved ELSE 0 END;
    SELECT stored.remain INTO balance_remain FROM {schema}.balances AS stored WHERE stored.account = settle_account FOR UPDATE;
    has_balance := FOUND;
    IF unlimited THEN
      charge := actual;
      UPDATE {schema}.balances AS stored SET used = stored.used + actual WHERE stored.account = settle_account;
    ELSIF NOT has_balance THEN
      charge := 0;
    ELSE
      charge := greatest(0, least(actual, balance_remain + given));
      UPDATE {schema}.balances AS stored SET remain = stored.remain + given - charge, used = stored.used + charge WHERE stored.account = settle_account;
    END IF;
    IF was_held AND budgeted AND charge <> budget_units THEN
      UPDATE {schema}.budget_windows AS stored SET used = greatest(0, stored.used + charge - budget_units) WHERE stored.key = ANY (budget_keys);
    END IF;
    RETURN QUERY SELECT coalesce(stored.remain, 0::bigint), coalesce(stored.used, 0::bigint), charge, was_held
      FROM (SELECT 1) AS one LEFT JOIN {schema}.balances AS stored ON stored.account = settle_account;
  END
  $body$;
  `,
  // The usage log marks a request served past a soft budget (UsageRecord.budget_overrun).
  `
  ALTER TABLE {schema}.usage_logs ADD COLUMN budget_overrun text NOT NULL DEFAULT '';
  `,
  // The audit trail (core/store/postgres-audit-log-store.ts): one row per admin change, before
  // and after as json (kept as written). The indexes serve the newest records (and the
  // retention's oldest), an actor's and a target's.
  `
  CREATE TABLE {schema}.audit_logs (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    created_at bigint NOT NULL,
    action text NOT NULL,
    user_id bigint NOT NULL,
    username text NOT NULL,
    ip text NOT NULL,
    source text NOT NULL,
    request_id text NOT NULL,
    target_id text NOT NULL,
    target_name text NOT NULL,
    "before" json NOT NULL,
    "after" json NOT NULL
  );
  CREATE INDEX audit_logs_time ON {schema}.audit_logs (created_at, id);
  CREATE INDEX audit_logs_user_time ON {schema}.audit_logs (user_id, created_at, id);
  CREATE INDEX audit_logs_target ON {schema}.audit_logs (target_id);
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
