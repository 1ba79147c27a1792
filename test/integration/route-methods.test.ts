import t from 'tap';
import { buildTestApp } from '../helpers/build-test-app.js';

t.test('a management route answers with and without its trailing slash', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const loginToken = await gateway.createUser('dana');
  for (const url of ['/api/token/', '/api/token', '/api/user/self', '/api/user/self/', '/api/log/self', '/api/log/self/']) {
    const response = await gateway.asUser(loginToken, { method: 'GET', url });
    t.equal(response.statusCode, 200, url);
    t.equal(response.json().success, true, url);
  }
  const created = await gateway.asUser(loginToken, { method: 'POST', url: '/api/token', payload: { name: 'no-slash' } });
  t.equal(created.statusCode, 200, 'POST /api/token creates a token as POST /api/token/ does');
});

t.test("an admin's management routes answer with and without their trailing slash, and a wrong method names the methods they take", async (t) => {
  const adminLogin = 'mgu_admin_login_token_for_the_route_methods_01';
  const gateway = await buildTestApp(t, 'memory', { users: [{ id: 1, username: 'root', login_token: adminLogin, role: 'admin' }] });
  for (const route of ['/api/user/', '/api/channel/', '/api/audit', '/api/log/', '/api/log/stat', '/api/pricing', '/api/log/self/stat', '/api/log/self/daily']) {
    const other = route.endsWith('/') ? route.slice(0, -1) : `${route}/`;
    for (const url of [route, other]) {
      const response = await gateway.asUser(adminLogin, { method: 'GET', url });
      t.equal(response.statusCode, 200, `GET ${url}`);
    }
  }
  const channels = await gateway.asUser(adminLogin, { method: 'PATCH', url: '/api/channel' });
  t.equal(channels.statusCode, 405, 'PATCH /api/channel');
  t.equal(channels.headers.allow, 'GET, HEAD, POST, PUT');
  t.match(channels.json(), { success: false, message: 'PATCH is not a method of /api/channel; it takes GET, HEAD, POST, PUT' });
  const audit = await gateway.asUser(adminLogin, { method: 'POST', url: '/api/audit/' });
  t.equal(audit.statusCode, 405, 'POST /api/audit/');
  t.equal(audit.headers.allow, 'GET, HEAD');
});

t.test('a path that exists answers a wrong method with 405 and the methods it takes, in the route dialect', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const loginToken = await gateway.createUser('erin');
  const management = await gateway.asUser(loginToken, { method: 'DELETE', url: '/api/user/self' });
  t.equal(management.statusCode, 405);
  t.equal(management.headers.allow, 'GET, HEAD');
  t.match(management.json(), { success: false, message: 'DELETE is not a method of /api/user/self; it takes GET, HEAD' });

  const chat = await gateway.app.inject({ method: 'GET', url: '/v1/chat/completions' });
  t.equal(chat.statusCode, 405);
  t.equal(chat.headers.allow, 'POST');
  t.match(chat.json(), { error: { code: 'method_not_allowed', message: 'GET is not a method of /v1/chat/completions; it takes POST' } }, 'the OpenAI error shape');

  const withParameter = await gateway.app.inject({ method: 'PATCH', url: '/api/token/7' });
  t.equal(withParameter.statusCode, 405, 'a path with a parameter');
  t.equal(withParameter.headers.allow, 'DELETE, GET, HEAD');

  const missing = await gateway.app.inject({ method: 'GET', url: '/api/nothing-here' });
  t.equal(missing.statusCode, 404, 'a path no route has stays 404');
});
