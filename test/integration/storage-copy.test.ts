import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import t, { type Test } from 'tap';
import { QuotaLedger } from '../../core/billing/quota-ledger.js';
import { gatewayConfigSchema, type GatewayConfig } from '../../core/config/config-schema.js';
import { createLogger } from '../../core/logging/create-logger.js';
import { ChannelAffinity } from '../../core/routing/channel-affinity.js';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend, StoreEntry } from '../../core/store/store-backend.js';
import { recordExpiry } from '../../core/store/store-entries.js';
import { TaskRepository } from '../../core/tasks/task-repository.js';
import type { TaskRecord } from '../../core/tasks/task-record.js';
import { TokenAuthenticator } from '../../core/tokens/token-authenticator.js';
import { TokenService } from '../../core/tokens/token-service.js';
import { UserService } from '../../core/users/user-service.js';
import type { AuditRecord } from '../../core/audit/audit-record.js';
import type { UsageRecord } from '../../core/usage/usage-record.js';
import { runCli } from '../../server/cli.js';
import { createGatewayContainer } from '../../server/create-container.js';
import { storageFor, testConfig, testEncryptionKey } from '../helpers/test-config.js';

/** Runs the CLI in this process and keeps what it wrote. */
async function cli(argv: string[]): Promise<{ code: number; out: string; error: string }> {
  let out = '';
  let error = '';
  const code = await runCli(argv, { out: (text) => (out += text), error: (text) => (error += text) });
  return { code, out, error };
}

/**
 * A directory of its own, removed when the test ends. Not `t.testdir`: a test has one, which
 * every call (`storageFor` makes one) empties again.
 */
function directoryFor(t: Test): string {
  const directory = mkdtempSync(join(tmpdir(), 'storage-copy-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

/** A SQLite store in a directory of its own. */
function sqliteStorage(t: Test): GatewayConfig['storage'] {
  const directory = directoryFor(t);
  return gatewayConfigSchema.shape.storage.parse({ driver: 'sqlite', data_dir: directory, path: join(directory, 'gateway.sqlite') });
}

/** Writes a gateway config naming `storage` into a fresh directory and returns its path. */
function writeConfig(t: Test, storage: GatewayConfig['storage'], encryptionKey = testEncryptionKey): string {
  const file = join(directoryFor(t), 'gateway.yaml');
  writeFileSync(
    file,
    JSON.stringify({
      storage,
      security: { encryption_key: encryptionKey },
      groups: { default: { ratio: 1 } },
      providers: [{ name: 'gx-main', plugin: 'gx', base_url: 'http://127.0.0.1:9/gx', api_key: 'upstream-secret', models: ['gx-2.5-pro'] }],
    }),
  );
  return file;
}

/** The services a gateway builds on a store, as the CLI's `users create` builds them. */
function servicesOn(backend: StoreBackend, storage: GatewayConfig['storage']) {
  const logger = createLogger({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const { container } = createGatewayContainer({ config: testConfig(storage), configFile: 'test', logger, backend });
  return {
    users: container.resolve(UserService),
    tokens: container.resolve(TokenService),
    ledger: container.resolve(QuotaLedger),
    authenticator: container.resolve(TokenAuthenticator),
    tasks: new TaskRepository(backend),
    affinity: new ChannelAffinity(backend.keyv<string>('affinity'), 3_600_000),
  };
}

interface Filled {
  /** Every token: its owner, id and key, and its balance after the charges. */
  tokens: Array<{ userId: number; id: number; key: string; remain: number; used: number }>;
  userIds: number[];
  taskId: string;
}

/** Fills a store as a gateway would: users, tokens, charges, an open video task, a plugin's record, affinities. */
async function fill(backend: StoreBackend, storage: GatewayConfig['storage']): Promise<Filled> {
  const services = servicesOn(backend, storage);
  const alice = (await services.users.create('alice')).user;
  const bob = (await services.users.create('bob', 'admin')).user;
  const limited = await services.tokens.create(alice.id, { name: 'limited', remain_quota: 1000 });
  const unlimited = await services.tokens.create(alice.id, { name: 'unlimited', unlimited_quota: true });
  const small = await services.tokens.create(bob.id, { name: 'small', remain_quota: 500 });
  await (await services.ledger.reserve(limited, 100)).settle(37);
  await (await services.ledger.reserve(small, 50)).settle(80);
  await (await services.ledger.reserve(unlimited, 0)).settle(20);
  // A video task holding 200 units until it settles.
  const hold = (await services.ledger.reserve(await services.tokens.get(alice.id, limited.id), 200)).detach();
  const now = Date.now();
  const task: TaskRecord = {
    id: 'video_copy1',
    token_id: limited.id,
    user_id: alice.id,
    model: 'vo-2',
    channel: 'vo-main',
    group: 'default',
    handle: 'operations/abc',
    status: 'in_progress',
    hold,
    units_if_succeeded: 150,
    settled: false,
    created_at: Math.floor(now / 1000),
    updated_at: Math.floor(now / 1000),
    polled_at: now,
    expires_at: now + 86_400_000,
  };
  await services.tasks.save(task, now);
  await backend.hitWindow('task-settled:video_done', 7 * 86_400_000);
  await backend.keyv('plugin:vo:tasks').set('operations:abc:1', { note: 'kept' });
  await services.affinity.remember('resp_kept', 'gp-east');
  await new ChannelAffinity(backend.keyv<string>('affinity'), 1).remember('resp_gone', 'gp-west');
  const used = { model_name: 'gx-2.5-pro', upstream_model: 'gx-2.5-pro', operation: 'chat', client_format: 'openai', group: 'default', is_stream: false, cached_tokens: 0, reasoning_tokens: 0, usage_source: 'upstream' as const };
  const done = { status: 200, error_code: '', end_reason: 'completed', budget_overrun: '', use_time_ms: 50, first_byte_ms: 50, task_id: '', channel: 'gx-main' };
  await backend.usageLog().append([
    { created_at: Math.floor(now / 1000) - 60, type: 2, user_id: alice.id, token_id: limited.id, token_name: 'limited', ...used, prompt_tokens: 10, completion_tokens: 5, quota: 37, ...done, request_id: 'copied-1', attempts: [{ channel: 'gx-main', group: 'default', outcome: 'success', milliseconds: 48 }] },
    { created_at: Math.floor(now / 1000) - 30, type: 5, user_id: bob.id, token_id: small.id, token_name: 'small', ...used, prompt_tokens: 0, completion_tokens: 0, quota: 0, ...done, status: 502, error_code: 'upstream_error', end_reason: 'upstream_error', request_id: 'copied-2', attempts: [{ channel: 'gx-main', group: 'default', outcome: 'failed', status: 502, code: 'upstream_error', milliseconds: 12 }] },
  ]);
  await backend.auditLog().append({ created_at: Math.floor(now / 1000) - 20, action: 'token.update', user_id: alice.id, username: 'alice', ip: '203.0.113.9', source: 'api', request_id: 'audited-1', target_id: String(limited.id), target_name: 'limited', before: { status: 1 }, after: { status: 2 } });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const tokens = [];
  for (const token of [limited, unlimited, small]) {
    const stored = await services.tokens.get(token.user_id, token.id);
    tokens.push({ userId: token.user_id, id: token.id, key: await services.tokens.revealKey(token.user_id, token.id), remain: stored.remain_quota, used: stored.used_quota });
  }
  return { tokens, userIds: [alice.id, bob.id], taskId: task.id };
}

/**
 * A store's durable content, sorted, without expired records, with each window's reset
 * rounded to the second (Redis keeps it as a TTL).
 */
async function contentOf(backend: StoreBackend): Promise<string[]> {
  const entries: string[] = [];
  for await (const entry of backend.exportEntries()) {
    if (entry.kind === 'record' && (recordExpiry(entry) ?? Infinity) <= Date.now()) continue;
    const normalized: StoreEntry =
      entry.kind === 'set' ? { ...entry, members: [...entry.members].sort() } : entry.kind === 'window' ? { ...entry, resetAt: Math.round(entry.resetAt / 1000) } : entry;
    entries.push(JSON.stringify(normalized));
  }
  return entries.sort();
}

const targets = ['sqlite', 'redis', 'postgres'] as const;

for (const targetDriver of targets) {
  t.test(`storage copy from sqlite to ${targetDriver}`, async (t) => {
    const sourceStorage = sqliteStorage(t);
    const targetStorage = targetDriver === 'sqlite' ? sqliteStorage(t) : storageFor(t, targetDriver);
    const source = await createStoreBackend(sourceStorage);
    const filled = await fill(source, sourceStorage);
    const sourceContent = await contentOf(source);
    await source.close();

    const result = await cli(['storage', 'copy', '--from', writeConfig(t, sourceStorage), '--to', writeConfig(t, targetStorage)]);
    t.equal(result.error, '');
    t.equal(result.code, 0);
    // users, user-by-username, user-by-login-token-hash (2 each), tokens, token-by-key-hash (3 each), the task, the plugin's record, one affinity.
    t.match(result.out, /records: +15 \(1 expired records left behind\)/);
    t.match(result.out, /balances: 3\n/);
    t.match(result.out, /counters: 2\n/);
    t.match(result.out, /holds: +1\n/, "the open video task's hold");
    t.match(result.out, /usage: +2 records of the usage log\n/);
    t.match(result.out, /audit: +1 records of the audit trail\n/);

    const target = await createStoreBackend(targetStorage);
    t.teardown(() => target.close());
    t.same(await contentOf(target), sourceContent, 'every record (with its expiry), set, counter, window, balance and usage record is on the target');

    const services = servicesOn(target, targetStorage);
    t.test('every token authenticates with the same key and keeps its balance', async (t) => {
      for (const token of filled.tokens) {
        const authenticated = await services.authenticator.authenticate(`sk-${token.key}`, '127.0.0.1');
        t.equal(authenticated.token.id, token.id);
        const stored = await services.tokens.get(token.userId, token.id);
        t.same({ remain: stored.remain_quota, used: stored.used_quota }, { remain: token.remain, used: token.used });
      }
      t.same(
        filled.tokens.map((token) => [token.remain, token.used]),
        [[1000 - 37 - 200, 37], [0, 20], [420, 80]],
        'the balances are those the charges left',
      );
    });

    t.test('id sequences continue without reusing an id', async (t) => {
      const carol = (await services.users.create('carol')).user;
      t.ok(carol.id > Math.max(...filled.userIds), `user id ${carol.id} follows ${filled.userIds.join(', ')}`);
      const token = await services.tokens.create(carol.id, { name: 'new', remain_quota: 1 });
      t.ok(token.id > Math.max(...filled.tokens.map((each) => each.id)), `token id ${token.id} follows the copied ones`);
      const copied = (await target.usageLog().page({}, 0, 10)).items;
      t.same(copied.map((record) => record.request_id), ['copied-2', 'copied-1'], 'the usage log reads back, newest first');
      const { id: _copiedId, ...newer } = copied[0] as UsageRecord;
      await target.usageLog().append([{ ...newer, request_id: 'after-copy' }]);
      const [newest] = (await target.usageLog().page({ request_id: 'after-copy' }, 0, 1)).items;
      t.ok((newest?.id ?? 0) > Math.max(...copied.map((record) => record.id)), `usage record id ${newest?.id} follows the copied ones`);
      const [audited] = (await target.auditLog().page({}, 0, 10)).items;
      t.match(audited, { request_id: 'audited-1', before: { status: 1 }, after: { status: 2 } }, 'the audit trail reads back');
      const { id: _copiedAuditId, ...change } = audited as AuditRecord;
      const next = await target.auditLog().append({ ...change, request_id: 'after-copy' });
      t.ok(next.id > (audited as AuditRecord).id, `audit record id ${next.id} follows the copied one`);
    });

    t.test('the open task, its held quota, the plugin record and the live affinity read back; the expired one is gone', async (t) => {
      t.same(await services.tasks.openIds(), [filled.taskId]);
      t.match(await services.tasks.get(filled.taskId), { hold: { units: 200, unlimited: false }, settled: false });
      t.same(await target.keyv('plugin:vo:tasks').get('operations:abc:1'), { note: 'kept' });
      t.equal(await services.affinity.channelOf('resp_kept'), 'gp-east');
      t.equal(await services.affinity.channelOf('resp_gone'), undefined);
      t.equal((await target.hitWindow('task-settled:video_done', 1000)).count, 2, "a task's settlement claim is still taken");
    });

    if (targetDriver !== 'sqlite') {
      t.test(`and back from ${targetDriver} to sqlite, the same content`, async (t) => {
        const expected = await contentOf(target);
        // Stopped, as a gateway on it would be: a copy refuses a PostgreSQL store with gateways connected.
        await target.close();
        const backStorage = sqliteStorage(t);
        const result = await cli(['storage', 'copy', '--from', writeConfig(t, targetStorage), '--to', writeConfig(t, backStorage)]);
        t.equal(result.code, 0, result.error);
        const back = await createStoreBackend(backStorage);
        t.teardown(() => back.close());
        t.same(await contentOf(back), expected);
        t.same(await back.keyv('plugin:vo:tasks').get('operations:abc:1'), { note: 'kept' });
      });
    }
  });
}

t.test('storage copy refuses', async (t) => {
  /** A sqlite store holding one user, and its config. */
  async function filledSqlite(t: Test): Promise<{ storage: GatewayConfig['storage']; file: string }> {
    const storage = sqliteStorage(t);
    const backend = await createStoreBackend(storage);
    await servicesOn(backend, storage).users.create('dora');
    await backend.close();
    return { storage, file: writeConfig(t, storage) };
  }

  t.test('a memory store on either side', async (t) => {
    const { file } = await filledSqlite(t);
    const memory = writeConfig(t, storageFor(t, 'memory'));
    for (const argv of [['--from', memory, '--to', file], ['--from', file, '--to', memory]]) {
      const result = await cli(['storage', 'copy', ...argv]);
      t.equal(result.code, 1);
      t.match(result.error, /the memory driver keeps nothing outside a running gateway/);
    }
  });

  t.test('the same store on both sides, also through two configs', async (t) => {
    const { storage, file } = await filledSqlite(t);
    const result = await cli(['storage', 'copy', '--from', file, '--to', writeConfig(t, storage)]);
    t.equal(result.code, 1);
    t.match(result.error, /--from and --to name the same store \(sqlite /);
  });

  t.test('overlapping Redis key prefixes on one server', async (t) => {
    const storage = storageFor(t, 'redis');
    const inner = { ...storage, key_prefix: `${storage.key_prefix}inner:` };
    const result = await cli(['storage', 'copy', '--from', writeConfig(t, storage), '--to', writeConfig(t, inner)]);
    t.equal(result.code, 1);
    t.match(result.error, /name the same store \(redis redis:\/\/127\.0\.0\.1:6379/);
  });

  t.test('a target that already holds data, and leaves it as it was', async (t) => {
    const from = await filledSqlite(t);
    const to = await filledSqlite(t);
    const target = await createStoreBackend(to.storage);
    const before = await contentOf(target);
    await target.close();
    const result = await cli(['storage', 'copy', '--from', from.file, '--to', to.file]);
    t.equal(result.code, 1);
    t.match(result.error, /already holds data, and a copy never merges into a store/);
    const after = await createStoreBackend(to.storage);
    t.teardown(() => after.close());
    t.same(await contentOf(after), before);
  });

  t.test('a target whose encryption key differs, since the copied API keys would not open', async (t) => {
    const { file } = await filledSqlite(t);
    const result = await cli(['storage', 'copy', '--from', file, '--to', writeConfig(t, sqliteStorage(t), 'another-key-0123456789abcdefghijkl')]);
    t.equal(result.code, 1);
    t.match(result.error, /does not have the encryption key of/);
    t.match(result.error, /set the same security\.encryption_key in /);
    t.notMatch(result.error, /another-key|test-encryption-key/, 'no key is printed');
  });

  t.test('a source whose key was generated: the refusal says which file holds it and how to set it on the target, never the key', async (t) => {
    const storage = sqliteStorage(t);
    const generated = 'generated-key-0123456789abcdefghijklmnop';
    writeFileSync(join(storage.data_dir, 'encryption.key'), `${generated}\n`, { mode: 0o600 });
    const backend = await createStoreBackend(storage);
    await servicesOn(backend, storage).users.create('dora');
    await backend.close();
    const result = await cli(['storage', 'copy', '--from', writeConfig(t, storage, ''), '--to', writeConfig(t, sqliteStorage(t))]);
    t.equal(result.code, 1);
    const keyFile = join(storage.data_dir, 'encryption.key');
    t.match(result.error, `the source's key was generated into ${keyFile}`);
    t.match(result.error, `export GATEWAY_ENCRYPTION_KEY="$(cat ${keyFile})"`);
    t.notMatch(result.error, generated, 'the key itself is not printed');
  });

  t.test('the same PostgreSQL schema on both sides', async (t) => {
    const storage = storageFor(t, 'postgres');
    const result = await cli(['storage', 'copy', '--from', writeConfig(t, storage), '--to', writeConfig(t, { ...storage })]);
    t.equal(result.code, 1);
    t.match(result.error, /name the same store \(postgres postgres:\/\/127\.0\.0\.1:5432\/test in the schema "mg_test_/);
  });

  t.test('a PostgreSQL store that a gateway is still connected to', async (t) => {
    const { file } = await filledSqlite(t);
    const storage = storageFor(t, 'postgres');
    const running = await createStoreBackend(storage);
    t.teardown(() => running.close());
    await running.subscribe('tokens', () => {});
    const result = await cli(['storage', 'copy', '--from', file, '--to', writeConfig(t, storage)]);
    t.equal(result.code, 1);
    t.match(result.error, /^gateways are running on the target store \(postgres .*\): [1-9]\d* connections? named model-gateway\/mg_test_\w+ in pg_stat_activity; stop them before copying/);
  });

  t.test('a target that does not answer, with a message naming it and no password', async (t) => {
    const { file } = await filledSqlite(t);
    const unreachable = { ...storageFor(t, 'redis'), url: 'redis://:hunter2@127.0.0.1:1' };
    const result = await cli(['storage', 'copy', '--from', file, '--to', writeConfig(t, unreachable)]);
    t.equal(result.code, 1);
    t.match(result.error, /^the target store \(redis redis:\/\/127\.0\.0\.1:1 under the key prefix "[^"]+"\) did not open: /);
    t.notMatch(result.error, /hunter2/);
  });

  t.test('a SQLite source file that does not exist, instead of copying an empty store', async (t) => {
    const missing = sqliteStorage(t);
    const result = await cli(['storage', 'copy', '--from', writeConfig(t, missing), '--to', writeConfig(t, sqliteStorage(t))]);
    t.equal(result.code, 1);
    t.match(result.error, /the SQLite file .*gateway\.sqlite does not exist; check storage\.path/);
  });

  t.test('without both --from and --to', async (t) => {
    const { file } = await filledSqlite(t);
    const result = await cli(['storage', 'copy', '--from', file]);
    t.equal(result.code, 2);
    t.match(result.error, /storage copy needs both --from <config> and --to <config>/);
  });
});
