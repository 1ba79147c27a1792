import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Clock } from '../../core/di/injection-tokens.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

/** Creates a token through the management API and returns its id and revealed key. */
async function createToken(t: Test, gateway: TestApp, loginToken: string, fields: Record<string, unknown>): Promise<{ id: number; key: string }> {
  const created = await gateway.asUser(loginToken, { method: 'POST', url: '/api/token/', payload: fields });
  t.equal(created.json().success, true, `token "${String(fields.name)}" is created`);
  const listed = await gateway.asUser(loginToken, { method: 'GET', url: '/api/token/?size=1' });
  const id = listed.json().data.items[0].id as number;
  const revealed = await gateway.asUser(loginToken, { method: 'POST', url: `/api/token/${id}/key` });
  return { id, key: revealed.json().data.key as string };
}

function listTokens(gateway: TestApp, loginToken: string) {
  return gateway.asUser(loginToken, { method: 'GET', url: '/api/token/?size=100' });
}

function callModels(gateway: TestApp, key: string) {
  return gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer sk-${key}` } });
}

t.test('the sqlite store keeps users, tokens, quota and statuses across a restart', async (t) => {
  let now = 1_900_000_000_000;
  const clock: Clock = { now: () => now };
  const first = await buildTestApp(t, 'sqlite', {}, { clock });
  t.ok(first.config.storage.path?.startsWith(first.config.storage.data_dir), 'the store is a file in the test directory');
  const alice = await first.createUser('alice');

  const quota = await createToken(t, first, alice, { name: 'quota', remain_quota: 123_456 });
  const unlimited = await createToken(t, first, alice, { name: 'unlimited', unlimited_quota: true, group: 'vip' });
  const disabled = await createToken(t, first, alice, { name: 'disabled', remain_quota: 10, model_limits_enabled: true, model_limits: ['gx-2.5-pro'] });
  const expiring = await createToken(t, first, alice, { name: 'expiring', remain_quota: 10, expired_time: now / 1000 + 30 });
  const exhausted = await createToken(t, first, alice, { name: 'exhausted', remain_quota: 0, allow_ips: '10.0.0.0/8,127.0.0.1' });

  const disabling = await first.asUser(alice, { method: 'PUT', url: '/api/token/?status_only=true', payload: { id: disabled.id, status: 2 } });
  t.equal(disabling.json().data.status, 2);

  now += 60_000;
  t.equal((await callModels(first, quota.key)).statusCode, 200);
  t.equal((await callModels(first, expiring.key)).statusCode, 401, 'the expiring token has expired by now');
  t.equal((await callModels(first, exhausted.key)).statusCode, 402);

  const before = (await listTokens(first, alice)).json().data;
  const statusOf = (page: { items: Array<{ id: number; status: number }> }, id: number) => page.items.find((item) => item.id === id)?.status;
  t.same(
    [quota, unlimited, disabled, expiring, exhausted].map(({ id }) => statusOf(before, id)),
    [1, 1, 2, 3, 4],
    'the statuses before the restart',
  );
  await first.app.close();

  const second = await buildTestApp(t, 'sqlite', {}, { config: first.config, clock });
  t.notOk(second.logLines.join('').includes('created the first admin user'), 'no second admin is made');

  const listed = await listTokens(second, alice);
  t.equal(listed.statusCode, 200, "alice's login token still signs in");
  const after = listed.json().data;
  const withoutAccessTime = (page: typeof before) =>
    page.items.map(({ accessed_time: _accessed, ...rest }: Record<string, unknown>) => rest) as unknown[];
  t.same(withoutAccessTime(after), withoutAccessTime(before), 'every token and field is as it was');
  t.equal(after.total, 5);
  t.match(after.items.find((item: { id: number }) => item.id === quota.id), { name: 'quota', remain_quota: 123_456, used_quota: 0, status: 1 });
  t.match(after.items.find((item: { id: number }) => item.id === unlimited.id), { unlimited_quota: true, group: 'vip' });
  t.match(after.items.find((item: { id: number }) => item.id === disabled.id), { status: 2, model_limits_enabled: true, model_limits: 'gx-2.5-pro' });
  t.match(after.items.find((item: { id: number }) => item.id === exhausted.id), { status: 4, allow_ips: '10.0.0.0/8,127.0.0.1' });
  t.equal(
    after.items.find((item: { id: number }) => item.id === quota.id).accessed_time,
    now / 1000,
    'the last access recorded before closing was written on close',
  );

  const revealed = await second.asUser(alice, { method: 'POST', url: `/api/token/${quota.id}/key` });
  t.equal(revealed.json().data.key, quota.key, 'the key reveals the same after the restart');
  t.equal((await callModels(second, quota.key)).statusCode, 200, 'and still authenticates');
  t.equal((await callModels(second, unlimited.key)).statusCode, 200);
  t.equal((await callModels(second, disabled.key)).statusCode, 401, 'the disabled token stays refused');
  t.equal((await callModels(second, expiring.key)).statusCode, 401, 'the expired token stays refused');
  t.equal((await callModels(second, exhausted.key)).statusCode, 402, 'the exhausted token stays refused');

  const created = await createToken(t, second, alice, { name: 'after restart', remain_quota: 1 });
  t.ok(created.id > exhausted.id, 'token ids keep counting up after the restart');
});

t.test('without security.encryption_key, the key generated into data_dir is reused across restarts', async (t) => {
  const config = testConfig(storageFor(t, 'sqlite'), { security: { encryption_key: '' } });
  const keyFile = join(config.storage.data_dir, 'encryption.key');
  t.notOk(existsSync(keyFile), 'there is no key file before the first start');

  const first = await buildTestApp(t, 'sqlite', {}, { config });
  t.ok(existsSync(keyFile), 'the first start generates the key file');
  t.equal(statSync(keyFile).mode & 0o777, 0o600, 'readable by the owner only');
  const secret = readFileSync(keyFile, 'utf8');
  t.match(secret.trim(), /^[\w-]{40,}$/, 'holds a long random secret');
  const firstLog = first.logLines.join('');
  t.match(firstLog, 'generated an encryption key', 'the operator is told to back it up');
  t.match(firstLog, keyFile, 'with the file path');
  t.notMatch(firstLog, secret.trim(), 'but not the secret');

  const loginToken = await first.createUser('bob');
  const token = await createToken(t, first, loginToken, { name: 'kept', remain_quota: 100 });
  t.equal((await callModels(first, token.key)).statusCode, 200);
  await first.app.close();

  const second = await buildTestApp(t, 'sqlite', {}, { config });
  t.equal(readFileSync(keyFile, 'utf8'), secret, 'the key file is unchanged');
  t.notMatch(second.logLines.join(''), 'generated an encryption key', 'no new key is generated');
  const revealed = await second.asUser(loginToken, { method: 'POST', url: `/api/token/${token.id}/key` });
  t.equal(revealed.json().data.key, token.key, 'keys sealed before the restart decrypt after it');
  t.equal((await callModels(second, token.key)).statusCode, 200, 'and their lookup hash still matches');
});

t.test('the first start with no configured user and an empty store makes an admin whose login token is in a 0600 file', async (t) => {
  const first = await buildTestApp(t, 'sqlite');
  const tokenFile = join(first.config.storage.data_dir, 'admin-login-token');
  t.ok(existsSync(tokenFile), 'data_dir/admin-login-token exists');
  t.equal(statSync(tokenFile).mode & 0o777, 0o600, 'with mode 0600');
  const loginToken = readFileSync(tokenFile, 'utf8').trim();
  t.match(loginToken, /^mgu_[0-9A-Za-z]{43}$/);

  const log = first.logLines.join('');
  t.match(log, 'created the first admin user');
  t.ok(log.includes(tokenFile), 'the log names the file');
  t.notOk(log.includes(loginToken), 'the log never shows the token');

  const listed = await first.asUser(loginToken, { method: 'GET', url: '/api/token/' });
  t.equal(listed.statusCode, 200);
  t.same(listed.json(), { success: true, message: '', data: { items: [], total: 0, page: 1, page_size: 20 } }, 'the token signs in to /api/token/');
  const created = await first.asUser(loginToken, { method: 'POST', url: '/api/token/', payload: { name: 'admin token' } });
  t.equal(created.json().success, true);
  await first.app.close();

  const contents = readFileSync(tokenFile, 'utf8');
  const second = await buildTestApp(t, 'sqlite', {}, { config: first.config });
  t.equal(readFileSync(tokenFile, 'utf8'), contents, 'a restart does not replace the file');
  t.notMatch(second.logLines.join(''), 'created the first admin user', 'nor make another admin');
  const afterRestart = await second.asUser(loginToken, { method: 'GET', url: '/api/token/' });
  t.equal(afterRestart.json().data.total, 1, 'the admin token still signs in and sees its token');
});
