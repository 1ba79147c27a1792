import t, { type Test } from 'tap';
import { AuditTrail } from '../../core/audit/audit-trail.js';
import { parseConfigText } from '../../core/config/load-config.js';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend } from '../../core/store/store-backend.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { storageDrivers, storageFor, type StorageDriver } from '../helpers/test-config.js';

// The audit trail through the management API: every token and user change is on record, with
// its actor, address and before and after, secrets masked; GET /api/audit for admins.

const adminLogin = 'mgu_admin_login_token_for_the_audit_trail_0001';
const admin = { id: 1, username: 'root', login_token: adminLogin, role: 'admin' };
/** The client's address behind the trusted proxy (the injected requests come from 127.0.0.1). */
const clientAddress = '198.51.100.23';
const maskedKey = /^[0-9A-Za-z]{4}\*{10}[0-9A-Za-z]{4}$/;

/** A clock the test moves (retention). */
class ManualClock {
  #offset = 0;
  now = () => Date.now() + this.#offset;
  advance(milliseconds: number): void {
    this.#offset += milliseconds;
  }
}

async function auditGateway(t: Test, driver: StorageDriver, overrides: Record<string, unknown> = {}, clock?: ManualClock, backend?: StoreBackend): Promise<TestApp> {
  return buildTestApp(t, driver, { users: [admin], server: { trust_proxy: ['127.0.0.1'] }, ...overrides }, { ...(clock === undefined ? {} : { clock }), ...(backend === undefined ? {} : { backend }) });
}

/** A management call as `loginToken`, through the trusted proxy from {@link clientAddress}. */
function call(gateway: TestApp, loginToken: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return gateway.asUser(loginToken, { method, url, payload: payload as never, headers: { 'x-forwarded-for': clientAddress } });
}

/** The records `query` finds, newest first, read by the admin. */
async function auditRecords(t: Test, gateway: TestApp, query = ''): Promise<any[]> {
  const response = await call(gateway, adminLogin, 'GET', `/api/audit?size=100${query}`);
  t.equal(response.statusCode, 200, `GET /api/audit${query} answers`);
  return response.json().data.items;
}

for (const driver of storageDrivers) {
  t.test(`on the ${driver} driver, every token and user change is on record with its actor, address, and before and after with secrets masked`, async (t) => {
    const gateway = await auditGateway(t, driver);

    const createdUser = await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'bob', budget_daily: 1000 });
    t.equal(createdUser.statusCode, 200);
    const bob = createdUser.json().data as { id: number; login_token: string; created_time: number };

    const createdToken = await call(gateway, bob.login_token, 'POST', '/api/token/', { name: 'ci-key', remain_quota: 500, model_limits_enabled: true, model_limits: ['gx-3'] });
    t.equal(createdToken.statusCode, 200);
    const tokenId = (await call(gateway, bob.login_token, 'GET', '/api/token/')).json().data.items[0].id as number;
    const key = (await call(gateway, bob.login_token, 'POST', `/api/token/${tokenId}/key`)).json().data.key as string;
    t.equal((await call(gateway, bob.login_token, 'PUT', '/api/token/', { id: tokenId, name: 'ci-key-2', remain_quota: 900 })).statusCode, 200);
    t.equal((await call(gateway, bob.login_token, 'PUT', '/api/token/?status_only=true', { id: tokenId, status: 2 })).statusCode, 200);
    t.equal((await call(gateway, bob.login_token, 'PUT', '/api/token/', { id: tokenId, name: 'ci-key-2' })).statusCode, 200, 'a token update that changes nothing');
    t.equal((await call(gateway, bob.login_token, 'PUT', '/api/token/', { id: tokenId, group: 'no-such-group' })).statusCode, 400, 'a refused change');
    t.equal((await call(gateway, adminLogin, 'PUT', '/api/user/', { id: bob.id, status: 2 })).statusCode, 200);
    t.equal((await call(gateway, adminLogin, 'PUT', '/api/user/', { id: bob.id, status: 2 })).statusCode, 200, 'an update that changes nothing');
    t.equal((await call(gateway, adminLogin, 'PUT', '/api/user/', { id: bob.id, status: 1 })).statusCode, 200);
    t.equal((await call(gateway, bob.login_token, 'DELETE', `/api/token/${tokenId}`)).statusCode, 200);
    for (const name of ['one', 'two']) await call(gateway, bob.login_token, 'POST', '/api/token/', { name });
    const batch = (await call(gateway, bob.login_token, 'GET', '/api/token/')).json().data.items.map((token: { id: number }) => token.id) as number[];
    t.same((await call(gateway, bob.login_token, 'POST', '/api/token/batch', { ids: [...batch, 999] })).json(), { success: true, message: '', data: 2 }, 'the batch answers how many it deleted');

    const records = (await auditRecords(t, gateway)).reverse();
    t.same(
      records.map((record) => [record.action, record.target_name]),
      [
        ['user.create', 'bob'],
        ['token.create', 'ci-key'],
        ['token.update', 'ci-key-2'],
        ['token.update', 'ci-key-2'],
        ['user.update', 'bob'],
        ['user.update', 'bob'],
        ['token.delete', 'ci-key-2'],
        ['token.create', 'one'],
        ['token.create', 'two'],
        ['token.delete', 'two'],
        ['token.delete', 'one'],
      ],
      'one record per change, in order; the refused change and the one that changed nothing have none',
    );
    const [userCreated, tokenCreated, tokenUpdated, tokenDisabled, userDisabled, userEnabled, tokenDeleted] = records;

    t.test('who, when, from where: the login token\'s user, Unix seconds, the client behind the trusted proxy', async (t) => {
      const now = Math.floor(Date.now() / 1000);
      t.match(userCreated, { user_id: 1, username: 'root', ip: clientAddress, source: 'api', target_id: String(bob.id) });
      t.match(tokenCreated, { user_id: bob.id, username: 'bob', ip: clientAddress, source: 'api', target_id: String(tokenId) });
      for (const record of records) {
        t.ok(record.created_at <= now && record.created_at > now - 60, `${record.action} is dated in Unix seconds`);
        t.match(record.request_id, /^[\w.:-]+$/, 'it names its request');
      }
    });

    t.test('a user is recorded without its login token, with its settings before and after', async (t) => {
      t.equal(userCreated.before, null);
      t.same(userCreated.after, { id: bob.id, username: 'bob', role: 'user', status: 1, created_time: bob.created_time, budget_daily: 1000, budget_weekly: null, budget_monthly: null, budget_mode: 'hard' });
      t.match(userDisabled, { before: { status: 1 }, after: { status: 2 } });
      t.match(userEnabled, { before: { status: 2 }, after: { status: 1 } });
      t.notOk(JSON.stringify(records).includes(bob.login_token), 'no login token anywhere on record');
    });

    t.test("a token's key is masked, and its fields are as they were before and after each change", async (t) => {
      t.equal(tokenCreated.before, null);
      t.match(tokenCreated.after, { id: tokenId, user_id: bob.id, name: 'ci-key', key: maskedKey, status: 1, remain_quota: 500, model_limits_enabled: true, model_limits: 'gx-3' });
      t.equal(tokenCreated.after.key, `${key.slice(0, 4)}**********${key.slice(-4)}`);
      t.notOk('budgets' in tokenCreated.after, 'what budgets counted so far is no setting');
      t.match(tokenUpdated, { before: { name: 'ci-key', remain_quota: 500 }, after: { name: 'ci-key-2', remain_quota: 900, status: 1 } });
      t.match(tokenDisabled, { before: { status: 1 }, after: { status: 2, name: 'ci-key-2' } });
      t.match(tokenDeleted, { target_id: String(tokenId), before: { name: 'ci-key-2', status: 2 }, after: null });
      t.notOk(JSON.stringify(records).includes(key), 'the full key is nowhere on record');
    });
  });
}

t.test('GET /api/audit filters by action, actor, target and time, pages newest first, and is for admins only', async (t) => {
  const gateway = await auditGateway(t, 'memory');
  const bob = (await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'bob' })).json().data as { id: number; login_token: string };
  await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'carol' });
  await call(gateway, bob.login_token, 'POST', '/api/token/', { name: 'bobs-key' });
  await call(gateway, bob.login_token, 'POST', '/api/token/', { name: 'other-key' });
  const tokenId = (await call(gateway, bob.login_token, 'GET', '/api/token/?size=100')).json().data.items.find((token: { name: string }) => token.name === 'bobs-key').id as number;

  const actions = (records: any[]) => records.map((record) => `${record.action} ${record.target_name}`);
  t.same(actions(await auditRecords(t, gateway)), ['token.create other-key', 'token.create bobs-key', 'user.create carol', 'user.create bob'], 'newest first');
  t.same(actions(await auditRecords(t, gateway, '&action=user.create')), ['user.create carol', 'user.create bob']);
  t.same(actions(await auditRecords(t, gateway, `&user_id=${bob.id}`)), ['token.create other-key', 'token.create bobs-key'], "the actor's changes");
  t.same(actions(await auditRecords(t, gateway, '&target=carol')), ['user.create carol'], 'a target by name');
  t.same(actions(await auditRecords(t, gateway, `&target=${tokenId}&action=token.create`)), ['token.create bobs-key'], 'a target by id');
  t.same(actions(await auditRecords(t, gateway, '&action=&target=')), actions(await auditRecords(t, gateway)), 'an empty filter is none');
  const now = Math.floor(Date.now() / 1000);
  t.equal((await auditRecords(t, gateway, `&start_timestamp=${now - 60}&end_timestamp=${now + 60}`)).length, 4);
  t.same(await auditRecords(t, gateway, `&start_timestamp=${now + 60}`), []);
  t.same(await auditRecords(t, gateway, `&end_timestamp=${now - 60}`), []);

  const second = await call(gateway, adminLogin, 'GET', '/api/audit/?p=2&size=3');
  t.equal(second.statusCode, 200, 'with the trailing slash too');
  t.match(second.json(), { success: true, message: '', data: { total: 4, page: 2, page_size: 3 } });
  t.same(actions(second.json().data.items), ['user.create bob']);

  for (const [query, field] of [
    ['size=101', 'size'],
    ['p=0', 'p'],
    ['action=token.rename', 'action'],
    ['user_id=alice', 'user_id'],
    ['start_timestamp=yesterday', 'start_timestamp'],
    [`start_timestamp=${now}&end_timestamp=${now - 1}`, 'end_timestamp'],
    ['target=' + 'x'.repeat(201), 'target'],
    ['colour=blue', 'colour'],
  ] as const) {
    const refused = await call(gateway, adminLogin, 'GET', `/api/audit?${query}`);
    t.equal(refused.statusCode, 400, `?${query} is refused`);
    t.match(refused.json(), { success: false, message: new RegExp(field) }, `and the message names ${field}`);
  }
  t.match((await call(gateway, adminLogin, 'GET', '/api/audit?action=token.rename')).json().message, /token\.create/, 'an unknown action lists the known ones');

  const refused = await call(gateway, bob.login_token, 'GET', '/api/audit');
  t.equal(refused.statusCode, 403, 'a user who is no admin is refused');
  t.equal((await gateway.app.inject({ method: 'GET', url: '/api/audit' })).statusCode, 401, 'and so is a caller without a login token');
});

t.test('a change whose record the store refuses is not answered as done: 503, never a silent change without its record', async (t) => {
  const backend = await createStoreBackend(storageFor(t, 'memory'));
  t.teardown(() => backend.close());
  const gateway = await auditGateway(t, 'memory', {}, undefined, backend);
  const trail = backend.auditLog();
  const append = trail.append.bind(trail);
  trail.append = async () => {
    throw new Error('the store refuses the write');
  };
  const refused = await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'unrecorded' });
  t.equal(refused.statusCode, 503);
  t.match(refused.json(), { success: false, message: /storage is unavailable/ });
  t.notOk(refused.body.includes('mgu_'), 'no login token is answered for it');
  trail.append = append;
  t.equal((await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'recorded' })).statusCode, 200, 'once the store takes records again, changes are answered');
  t.same((await auditRecords(t, gateway)).map((record) => record.target_name), ['recorded']);
});

t.test('records older than audit.retention_days are removed in the background, newer ones kept', async (t) => {
  const clock = new ManualClock();
  const gateway = await auditGateway(t, 'sqlite', { audit: { retention_days: 7 } }, clock);
  await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'old-change' });
  clock.advance(8 * 86_400_000);
  await call(gateway, adminLogin, 'POST', '/api/user/', { username: 'new-change' });
  t.equal(await gateway.app.gateway.resolve(AuditTrail).removeExpired(), 1, 'the retention round removes the old record');
  t.same((await auditRecords(t, gateway)).map((record) => record.target_name), ['new-change']);
  t.equal(await gateway.app.gateway.resolve(AuditTrail).removeExpired(), 0, 'and nothing more on the next round');
  clock.advance(2 * 86_400_000);
  gateway.app.gateway.resolve(AuditTrail).setRetentionDays(1);
  t.equal(await gateway.app.gateway.resolve(AuditTrail).removeExpired(), 1, "a reload's shorter retention applies from the next round");
  t.same(await auditRecords(t, gateway), []);
});

t.test('the retention is 180 days unless audit.retention_days says otherwise, and a bad value is refused with its path', async (t) => {
  const gateway = await auditGateway(t, 'memory');
  t.equal(gateway.config.audit.retention_days, 180);
  t.equal(parseConfigText('audit:\n  retention_days: 400\n', 'gateway.yaml', {}).audit.retention_days, 400);
  t.throws(() => parseConfigText('audit:\n  retention_days: 0\n', 'gateway.yaml', {}), /audit\.retention_days/);
});
