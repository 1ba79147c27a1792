import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildApp } from '../../server/build-app.js';
import { capturingLogger, buildTestApp } from '../helpers/build-test-app.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

const configuredUser = (login_token: string, username = 'operator', id = 7) => ({ users: [{ id, username, login_token }] });
const selfOf = async (app: Awaited<ReturnType<typeof buildApp>>, login: string) =>
  (await app.inject({ method: 'GET', url: '/api/user/self', headers: { authorization: `Bearer ${login}` } })).json().data;
const listTokens = (login: string) => ({ method: 'GET' as const, url: '/api/token/', headers: { authorization: `Bearer ${login}` } });

t.test('a configured user signs in with the login token from the config, and no admin is generated', async (t) => {
  const { app, logLines } = await buildTestApp(t, 'sqlite', configuredUser('mgu_configured_login_token_value_0001'));
  t.equal((await app.inject(listTokens('mgu_configured_login_token_value_0001'))).statusCode, 200);
  t.notOk(logLines.some((line) => line.includes('admin-login-token')));
});

t.test('changing a configured login token rotates it on the next start: the old one stops working', async (t) => {
  const storage = storageFor(t, 'sqlite');
  const first = await buildApp(testConfig(storage, configuredUser('mgu_first_login_token_value_000000001')), { logger: capturingLogger([]) });
  await first.close();
  const second = await buildApp(testConfig(storage, configuredUser('mgu_second_login_token_value_00000002')), { logger: capturingLogger([]) });
  t.teardown(() => second.close());
  t.equal((await second.inject(listTokens('mgu_first_login_token_value_000000001'))).statusCode, 401);
  t.equal((await second.inject(listTokens('mgu_second_login_token_value_00000002'))).statusCode, 200);
});

t.test('a configured entry whose login token is empty is skipped, so the first start generates an admin instead', async (t) => {
  const { logLines } = await buildTestApp(t, 'memory', configuredUser(''));
  t.ok(logLines.some((line) => line.includes('admin-login-token')), 'the generated admin is logged by its file');
});

t.test('a configured username that belongs to another user in the store stops the start with a clear message', async (t) => {
  const storage = storageFor(t, 'sqlite');
  const first = await buildApp(testConfig(storage, configuredUser('mgu_first_login_token_value_000000001', 'operator', 7)), {
    logger: capturingLogger([]),
  });
  await first.close();
  await t.rejects(
    buildApp(testConfig(storage, configuredUser('mgu_first_login_token_value_000000001', 'operator', 8)), { logger: capturingLogger([]) }),
    { statusCode: 400, message: /users\[0\]\.username: "operator" already belongs to user 7/ },
  );
});

t.test('a configured user is a user unless its entry says role: admin, and the generated first admin is an admin', async (t) => {
  const plain = 'mgu_plain_configured_login_token_value_01';
  const chief = 'mgu_chief_configured_login_token_value_02';
  const { app } = await buildTestApp(t, 'memory', {
    users: [
      { id: 7, username: 'operator', login_token: plain },
      { id: 8, username: 'chief', login_token: chief, role: 'admin' },
    ],
  });
  t.match(await selfOf(app, plain), { username: 'operator', role: 'user' });
  t.equal((await app.inject({ method: 'GET', url: '/api/user/', headers: { authorization: `Bearer ${plain}` } })).statusCode, 403, 'so it is refused the admin routes');
  t.match(await selfOf(app, chief), { username: 'chief', role: 'admin' });

  const generated = await buildTestApp(t, 'memory');
  const login = readFileSync(generated.app.firstAdminTokenFile ?? '', 'utf8').trim();
  t.match(await selfOf(generated.app, login), { username: 'admin', role: 'admin' });
});

t.test('a configured user disabled through the user API stays disabled after a restart, and its role follows the config', async (t) => {
  const storage = storageFor(t, 'sqlite');
  const chief = { id: 1, username: 'chief', login_token: 'mgu_chief_configured_login_token_value_02', role: 'admin' };
  const operator = { id: 7, username: 'operator', login_token: 'mgu_plain_configured_login_token_value_01' };
  const first = await buildApp(testConfig(storage, { users: [chief, operator] }), { logger: capturingLogger([]) });
  const disabled = await first.inject({ method: 'PUT', url: '/api/user/', headers: { authorization: `Bearer ${chief.login_token}` }, payload: { id: 7, status: 2 } });
  t.equal(disabled.statusCode, 200);
  await first.close();
  const second = await buildApp(testConfig(storage, { users: [chief, { ...operator, role: 'admin' }] }), { logger: capturingLogger([]) });
  t.teardown(() => second.close());
  t.equal((await second.inject(listTokens(operator.login_token))).statusCode, 403, 'still disabled');
  const listed = (await second.inject({ method: 'GET', url: '/api/user/', headers: { authorization: `Bearer ${chief.login_token}` } })).json().data.items;
  t.match(listed, [{ id: 7, role: 'admin', status: 2 }, { id: 1, role: 'admin', status: 1 }]);
});
