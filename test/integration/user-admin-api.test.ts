import t from 'tap';
import { issueToken, scenarioGateway } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// The user API and the admin guard, on the memory store (the multi-instance cases run the
// disabling on Redis and PostgreSQL across processes).

const adminLogin = 'mgu_admin_login_token_for_the_user_api_0001';
const admin = { id: 1, username: 'root', login_token: adminLogin, role: 'admin' };

async function gatewayWithAdmin(t: Parameters<typeof scenarioGateway>[0]): Promise<TestApp> {
  return scenarioGateway(t, { users: [admin] });
}

const asAdmin = (gateway: TestApp, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => gateway.asUser(adminLogin, { method, url, payload: payload as never });

t.test('an admin reads itself, creates a user whose answered login token signs in, and lists users newest first in pages', async (t) => {
  const gateway = await gatewayWithAdmin(t);
  const self = await asAdmin(gateway, 'GET', '/api/user/self');
  const noBudgets = { budget_daily: null, budget_weekly: null, budget_monthly: null, budget_mode: 'hard', budgets: [] };
  t.same(self.json(), { success: true, message: '', data: { id: 1, username: 'root', role: 'admin', status: 1, created_time: self.json().data.created_time, ...noBudgets } });

  const created = await asAdmin(gateway, 'POST', '/api/user/', { username: 'bob' });
  t.equal(created.statusCode, 200);
  t.equal(created.headers['cache-control'], 'no-store', 'the login token is not cached on the way');
  const bob = created.json().data;
  t.match(bob, { username: 'bob', role: 'user', status: 1, login_token: /^mgu_/ }, 'a user by default, with its login token');
  t.notOk('login_token_hash' in bob, 'the hash is not shown');

  const bobSelf = await gateway.asUser(bob.login_token, { method: 'GET', url: '/api/user/self' });
  t.same(bobSelf.json().data, { id: bob.id, username: 'bob', role: 'user', status: 1, created_time: bob.created_time, ...noBudgets }, 'the returned login token signs in as bob');
  t.equal((await asAdmin(gateway, 'POST', '/api/user/', { username: 'carol', role: 'admin' })).json().data.role, 'admin', 'an admin can be created');

  const first = (await asAdmin(gateway, 'GET', '/api/user/?p=1&size=2')).json().data;
  t.same(
    { total: first.total, page: first.page, page_size: first.page_size, names: first.items.map((user: { username: string }) => user.username) },
    { total: 3, page: 1, page_size: 2, names: ['carol', 'bob'] },
  );
  const second = (await asAdmin(gateway, 'GET', '/api/user/?p=2&size=2')).json().data;
  t.same(second.items.map((user: { username: string }) => user.username), ['root']);
  t.same(Object.keys(second.items[0]).sort(), ['budget_daily', 'budget_mode', 'budget_monthly', 'budget_weekly', 'budgets', 'created_time', 'id', 'role', 'status', 'username']);
});

t.test("a disabled user's login token and API keys are refused with 403 until an admin enables the user again", async (t) => {
  const gateway = await gatewayWithAdmin(t);
  const token = await issueToken(t, gateway);
  const userId = (await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/user/self' })).json().data.id as number;
  const listModels = () => gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer });
  const listTokens = () => gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/' });
  t.equal((await listModels()).statusCode, 200, 'the key works (and is cached) first');

  const disabled = await asAdmin(gateway, 'PUT', '/api/user/', { id: userId, status: 2 });
  t.match(disabled.json(), { success: true, data: { id: userId, status: 2 } });
  const refusedKey = await listModels();
  t.equal(refusedKey.statusCode, 403);
  t.match(refusedKey.json().error, { code: 'user_disabled', message: /user this API key belongs to is disabled/ });
  const refusedLogin = await listTokens();
  t.equal(refusedLogin.statusCode, 403);
  t.match(refusedLogin.json(), { success: false, message: /user this login token belongs to is disabled; an admin can enable them again/ });
  t.match((await asAdmin(gateway, 'GET', '/api/user/?size=100')).json().data.items, [{ id: userId, status: 2 }, { id: 1, status: 1 }], 'the list shows it disabled');

  t.match((await asAdmin(gateway, 'PUT', '/api/user/', { id: userId, status: 1 })).json(), { success: true, data: { status: 1 } });
  t.equal((await listModels()).statusCode, 200, 'the key works again');
  t.equal((await listTokens()).statusCode, 200, 'and the login token');
});

t.test('an admin cannot disable themself', async (t) => {
  const gateway = await gatewayWithAdmin(t);
  const answer = await asAdmin(gateway, 'PUT', '/api/user/', { id: 1, status: 2 });
  t.equal(answer.statusCode, 400);
  t.match(answer.json(), { success: false, message: /^id: you cannot disable yourself/ });
  t.equal((await asAdmin(gateway, 'GET', '/api/user/self')).json().data.status, 1, 'still enabled');
});

t.test('every admin route refuses a signed-in user with 403 saying it is for admins, and refuses nobody signed in with 401', async (t) => {
  const gateway = await gatewayWithAdmin(t);
  const user = await gateway.createUser('plain');
  const adminRoutes = [
    { method: 'GET', url: '/api/user/' },
    { method: 'POST', url: '/api/user/', payload: { username: 'sneaky', role: 'admin' } },
    { method: 'PUT', url: '/api/user/', payload: { id: 1, status: 2 } },
    { method: 'GET', url: '/api/channel/' },
    { method: 'POST', url: '/api/channel/test', payload: { name: 'gx-main' } },
  ] as const;
  for (const route of adminRoutes) {
    const refused = await gateway.asUser(user, route);
    t.equal(refused.statusCode, 403, `${route.method} ${route.url}: 403`);
    t.match(refused.json(), { success: false, message: `${route.method} ${route.url} is for admins only; sign in with an admin's login token` });
    t.equal((await gateway.app.inject(route)).statusCode, 401, `${route.method} ${route.url} without a login token: 401`);
  }
  t.equal((await gateway.asUser(user, { method: 'GET', url: '/api/user/self' })).json().data.role, 'user', 'a user still reads itself');
  t.equal((await asAdmin(gateway, 'GET', '/api/user/self')).json().data.status, 1, 'and nothing was changed');
  t.equal((await asAdmin(gateway, 'GET', '/api/user/')).json().data.total, 2, 'nor created');
});

t.test('bad input to the user API is a 400 naming the field, an unknown user a 404', async (t) => {
  const gateway = await gatewayWithAdmin(t);
  const cases: Array<[string, 'GET' | 'POST' | 'PUT', string, unknown, RegExp]> = [
    ['a username with a space', 'POST', '/api/user/', { username: 'two words' }, /^username: expected 1 to 64 letters/],
    ['a taken username', 'POST', '/api/user/', { username: 'root' }, /^username: "root" is taken/],
    ['a role that does not exist', 'POST', '/api/user/', { username: 'dave', role: 'owner' }, /^role: expected admin or user/],
    ['an unknown field', 'POST', '/api/user/', { username: 'dave', password: 'x' }, /password/],
    ['no username', 'POST', '/api/user/', {}, /^username/],
    ['an id that is not a number', 'PUT', '/api/user/', { id: 'one', status: 2 }, /^id: expected an integer/],
    ['a status of the gateway', 'PUT', '/api/user/', { id: 1, status: 3 }, /^status: expected 1 \(enabled\) or 2 \(disabled\)/],
    ['a page too large', 'GET', '/api/user/?size=500', undefined, /^size: at most 100/],
  ];
  for (const [what, method, url, payload, message] of cases) {
    const answer = await asAdmin(gateway, method, url, payload);
    t.equal(answer.statusCode, 400, `${what}: 400`);
    t.match(answer.json(), { success: false, message }, what);
  }
  const unknown = await asAdmin(gateway, 'PUT', '/api/user/', { id: 999, status: 2 });
  t.equal(unknown.statusCode, 404);
  t.match(unknown.json(), { success: false, message: 'id: no user has id 999' });
});
