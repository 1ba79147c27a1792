import t from 'tap';
import { buildApp } from '../../server/build-app.js';
import { capturingLogger, buildTestApp } from '../helpers/build-test-app.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

const configuredUser = (login_token: string, username = 'operator', id = 7) => ({ users: [{ id, username, login_token }] });
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
