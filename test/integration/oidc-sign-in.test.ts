import { createServer } from 'node:net';
import t, { type Test } from 'tap';
import { UserService } from '../../core/users/user-service.js';
import { signInThroughProvider, CookieJar } from '../fakes/oidc/provider-sign-in.js';
import { startTestIdentityProvider, testClient, type TestIdentityProvider } from '../fakes/oidc/test-identity-provider.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import type { StorageDriver } from '../helpers/test-config.js';

// Console sign-in with a real OpenID provider (oidc-provider on a loopback port), driven over
// HTTP: the gateway by inject, the provider by fetch. The browser's side is in
// test/browser/console-sign-in.test.ts.

// inject never listens, so the address only has to be the one the provider registered.
const redirectUrl = 'http://127.0.0.1:3999/api/sign-in/oidc/callback';

const people = {
  grace: { preferred_username: 'grace', email: 'grace@example.com', groups: ['staff', 'gateway-admins'] },
  hal: { email: 'hal@example.com', groups: ['staff'] },
};

function oidcSettings(issuer: string, fields: Record<string, unknown> = {}) {
  return {
    issuer,
    client_id: testClient.id,
    client_secret: testClient.secret,
    redirect_url: redirectUrl,
    admin_claim: 'groups=gateway-admins',
    scopes: ['openid', 'profile', 'email', 'groups'],
    display_name: 'Example SSO',
    ...fields,
  };
}

async function scene(t: Test, driver: StorageDriver = 'memory', fields: Record<string, unknown> = {}): Promise<{ provider: TestIdentityProvider; gateway: TestApp }> {
  const provider = await startTestIdentityProvider(t, redirectUrl, structuredClone(people));
  const gateway = await buildTestApp(t, driver, { auth: { oidc: oidcSettings(provider.issuer, fields) } });
  return { provider, gateway };
}

/** The login token a successful callback hands the console in the fragment of its redirect. */
function loginTokenOf(t: Test, callback: { statusCode: number; headers: Record<string, unknown>; body: string }): string {
  t.equal(callback.statusCode, 303, `the callback sends the browser to the console${callback.statusCode === 303 ? '' : `, not ${callback.body.slice(0, 300)}`}`);
  const location = new URL(String(callback.headers.location));
  t.equal(`${location.origin}${location.pathname}`, 'http://127.0.0.1:3999/console/', 'on the gateway address the redirect_url names');
  t.equal(location.search, '', 'with nothing in the query, which servers and proxies log');
  const token = new URLSearchParams(location.hash.slice(1)).get('login_token');
  t.match(token, /^mgu_[0-9A-Za-z]{43}$/, 'the login token is in the fragment');
  return token ?? '';
}

const self = (gateway: TestApp, token: string) => gateway.asUser(token, { method: 'GET', url: '/api/user/self' });

t.test('GET /api/sign-in says which identity provider the console may offer, and null without one', async (t) => {
  const { gateway } = await scene(t);
  t.same((await gateway.app.inject({ method: 'GET', url: '/api/sign-in' })).json(), { success: true, message: '', data: { oidc: { display_name: 'Example SSO', url: '/api/sign-in/oidc' } } });
  const plain = await buildTestApp(t, 'memory');
  t.same((await plain.app.inject({ method: 'GET', url: '/api/sign-in' })).json(), { success: true, message: '', data: { oidc: null } });
  t.equal((await plain.app.inject({ method: 'GET', url: '/api/sign-in/oidc' })).statusCode, 404, 'and without one there is no sign-in to start');
});

t.test('the start sends the browser to the provider with a PKCE challenge, a state and a nonce, and binds the flow to the browser by an httpOnly cookie', async (t) => {
  const { provider, gateway } = await scene(t);
  const started = await gateway.app.inject({ method: 'GET', url: '/api/sign-in/oidc' });
  t.equal(started.statusCode, 302);
  const location = new URL(String(started.headers.location));
  t.equal(`${location.origin}${location.pathname}`, `${provider.issuer}/auth`, "to the provider's authorization endpoint");
  const query = Object.fromEntries(location.searchParams);
  t.match(query, { client_id: testClient.id, redirect_uri: redirectUrl, response_type: 'code', scope: 'openid profile email groups', code_challenge_method: 'S256' });
  t.match(query.code_challenge, /^[\w-]{43}$/, 'the S256 challenge, never the verifier');
  t.match(query.state, /^[\w-]{43}$/);
  t.match(query.nonce, /^[\w-]{43}$/);
  const cookie = String(started.headers['set-cookie']);
  t.match(cookie, /^model_gateway_sign_in=[\w-]+\.[\w-]+\.[\w-]+; Max-Age=600; Path=\/api\/sign-in\/oidc; HttpOnly; SameSite=Lax$/, 'sealed, httpOnly, for the sign-in routes only, 10 minutes');
  for (const check of [query.state, query.nonce]) t.notOk(cookie.includes(check ?? '-'), 'nothing of the flow is readable in the cookie');
});

t.test('a first sign-in creates the user with the role its claims give, keyed by issuer and subject, and the next one finds it again', async (t) => {
  const { gateway } = await scene(t);
  const grace = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
  t.match((await self(gateway, grace)).json().data, { username: 'grace', role: 'admin', status: 1 }, 'grace is in gateway-admins: an admin');
  const hal = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'hal' }));
  t.match((await self(gateway, hal)).json().data, { username: 'hal-example.com', role: 'user' }, 'hal has no preferred_username: named after the email, a user');
  t.equal((await gateway.asUser(hal, { method: 'GET', url: '/api/user/' })).statusCode, 403, 'and the admin routes refuse him');

  const again = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
  t.not(again, grace, 'each sign-in has a session of its own');
  t.equal((await self(gateway, again)).json().data.id, (await self(gateway, grace)).json().data.id, 'of the same user');
  const users = (await gateway.asUser(grace, { method: 'GET', url: '/api/user/' })).json().data;
  t.same(users.items.map((user: { username: string }) => user.username).sort(), ['admin', 'grace', 'hal-example.com'], 'besides the first admin made at start, one user per person: none was created twice');
});

t.test('a person whose name another user has is named with -2, and keeps the name at later sign-ins', async (t) => {
  const { provider, gateway } = await scene(t);
  provider.accounts.set('root-at-idp', { preferred_username: 'admin' });
  const first = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'root-at-idp' }));
  t.match((await self(gateway, first)).json().data, { username: 'admin-2', role: 'user' }, 'the first admin the gateway made keeps "admin"');
  provider.accounts.set('root-at-idp', { preferred_username: 'renamed' });
  const again = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'root-at-idp' }));
  t.equal((await self(gateway, again)).json().data.username, 'admin-2', 'a name changed at the provider does not rename the user');
});

t.test("a role change in the claims changes the user's role at the next sign-in", async (t) => {
  const { provider, gateway } = await scene(t);
  const first = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'hal' }));
  t.equal((await self(gateway, first)).json().data.role, 'user');
  provider.accounts.set('hal', { ...people.hal, groups: ['staff', 'gateway-admins'] });
  const promoted = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'hal' }));
  t.equal((await self(gateway, promoted)).json().data.role, 'admin', 'added to gateway-admins: an admin');
  provider.accounts.set('hal', people.hal);
  const demoted = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'hal' }));
  t.equal((await self(gateway, demoted)).json().data.role, 'user', 'taken out again: a user');
  t.equal((await gateway.asUser(first, { method: 'GET', url: '/api/user/' })).statusCode, 403, 'every session of the user has the role of the last sign-in');
});

t.test('a user disabled by an admin is refused at the next sign-in with a page that says so', async (t) => {
  const { gateway } = await scene(t);
  const grace = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
  const hal = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'hal' }));
  const halId = (await self(gateway, hal)).json().data.id as number;
  const disabled = await gateway.asUser(grace, { method: 'PUT', url: '/api/user/', payload: { id: halId, status: 2 } });
  t.equal(disabled.statusCode, 200);
  t.equal((await self(gateway, hal)).statusCode, 403, 'his session is refused at once');
  const refused = await signInThroughProvider(gateway, { login: 'hal' });
  t.equal(refused.statusCode, 403);
  t.match(refused.headers['content-type'], /^text\/html/);
  t.match(refused.body, /Sign-in failed/);
  t.match(refused.body, /the gateway&#39;s user &#34;hal-example.com&#34; is disabled, so it may not sign in; an admin can enable it again on the Users page/);
  t.match(refused.body, /<code>user_disabled<\/code>/);
  t.notOk(refused.headers.location, 'and no login token is handed out');
});

t.test('a person who declines at the provider gets 403 sign_in_refused with its reason', async (t) => {
  const { gateway } = await scene(t);
  const declined = await signInThroughProvider(gateway, { cancel: true });
  t.equal(declined.statusCode, 403);
  t.match(declined.body, /the identity provider refused the sign-in: access_denied \(End-User aborted interaction\)/);
  t.match(declined.body, /<code>sign_in_refused<\/code>/);
});

t.test('a callback without a state or a code, of another browser, another sign-in, a flow over 10 minutes old, or with a used code is a 400 page', async (t) => {
  let now = Date.now();
  const provider = await startTestIdentityProvider(t, redirectUrl, structuredClone(people));
  const gateway = await buildTestApp(t, 'memory', { auth: { oidc: oidcSettings(provider.issuer) } }, { clock: { now: () => now } });
  const callback = (query: string, cookie?: string) =>
    gateway.app.inject({ method: 'GET', url: `/api/sign-in/oidc/callback${query}`, headers: cookie === undefined ? {} : { cookie } });
  const checks = async (what: string, answer: Awaited<ReturnType<typeof callback>>, message: RegExp) => {
    t.equal(answer.statusCode, 400, `${what}: 400`);
    t.match(answer.body, message, `${what}: says why`);
    t.match(answer.body, /<code>sign_in_callback_invalid<\/code>/);
    t.match(answer.body, /href="http:\/\/127.0.0.1:3999\/console\/"/, `${what}: links back to the sign-in`);
    t.match(String(answer.headers['set-cookie']), /^model_gateway_sign_in=; Max-Age=0;/, `${what}: the flow is over`);
  };
  const start = async () => {
    const started = await gateway.app.inject({ method: 'GET', url: '/api/sign-in/oidc' });
    const state = new URL(String(started.headers.location)).searchParams.get('state') ?? '';
    return { state, cookie: String(started.headers['set-cookie']).split(';')[0] ?? '' };
  };
  await checks('no state', await callback('?code=abc'), /the sign-in callback has no state parameter; start the sign-in again from the console/);
  const flow = await start();
  await checks('no cookie', await callback(`?code=abc&state=${flow.state}`), /this browser has no sign-in in progress: it was started in another browser, more than 10 minutes ago, or has already been completed/);
  await checks('a forged cookie', await callback(`?code=abc&state=${flow.state}`, 'model_gateway_sign_in=AAAA.BBBB.CCCC'), /this browser&#39;s sign-in cookie was not made by this gateway/);
  const other = await start();
  await checks('another sign-in', await callback(`?code=abc&state=${other.state}`, flow.cookie), /this callback is not for the sign-in this browser started \(its state differs\)/);
  await checks('no code', await callback(`?state=${flow.state}`, flow.cookie), /the sign-in callback has no code parameter/);
  const issuer = encodeURIComponent(provider.issuer);
  await checks('a code the provider never issued', await callback(`?code=made-up&state=${flow.state}&iss=${issuer}`, flow.cookie), /the identity provider did not accept the callback&#39;s code \(it answered 400 invalid_grant/);
  now += 10 * 60_000;
  await checks('a flow over 10 minutes old', await callback(`?code=abc&state=${flow.state}`, flow.cookie), /this sign-in was started more than 10 minutes ago/);
});

t.test('a callback replayed after its sign-in completed signs nobody in', async (t) => {
  const { gateway } = await scene(t);
  let callback = { url: '', cookie: '' };
  const completed = await signInThroughProvider(gateway, { login: 'grace' }, new CookieJar(), (url, cookie) => {
    callback = { url, cookie };
  });
  loginTokenOf(t, completed);
  const replayed = await gateway.app.inject({ method: 'GET', url: callback.url, headers: { cookie: callback.cookie } });
  t.equal(replayed.statusCode, 400, 'the same callback, with the cookie the browser had then: 400');
  t.match(replayed.body, /did not accept the callback&#39;s code .*: it was already used, has expired, or was not issued to this gateway/);
  t.notOk(replayed.headers.location, 'and no login token is handed out');
});

t.test('an identity provider that cannot be reached is a 502 page naming the issuer, and the gateway starts anyway', async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as { port: number };
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const gateway = await buildTestApp(t, 'memory', { auth: { oidc: oidcSettings(`http://127.0.0.1:${port}`) } });
  const started = await gateway.app.inject({ method: 'GET', url: '/api/sign-in/oidc' });
  t.equal(started.statusCode, 502);
  t.match(started.headers['content-type'], /^text\/html/);
  t.match(started.body, new RegExp(`the identity provider at http://127.0.0.1:${port} could not be reached or gave no usable OpenID configuration: .*ECONNREFUSED.*; try again later, or ask the operator to check auth.oidc.issuer`));
  t.match(started.body, /<code>identity_provider_failed<\/code>/);
  t.notOk(started.headers['set-cookie'], 'no flow was started');
  t.notOk(gateway.logLines.join('').includes(testClient.secret), 'the client secret is in no log line');
});

t.test('signing out ends the single sign-on session: its login token is refused; a pasted login token is no session and keeps working', async (t) => {
  const { gateway } = await scene(t);
  const token = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
  const out = await gateway.asUser(token, { method: 'POST', url: '/api/sign-out' });
  t.same(out.json(), { success: true, message: '', data: { session_ended: true } });
  t.equal((await self(gateway, token)).statusCode, 401, 'the token no longer works');

  const own = await gateway.createUser('paster');
  t.same((await gateway.asUser(own, { method: 'POST', url: '/api/sign-out' })).json().data, { session_ended: false });
  t.equal((await self(gateway, own)).statusCode, 200, 'the user’s own login token still works');
});

t.test('a single sign-on session ends at its expiry, session_hours after the sign-in', async (t) => {
  let now = Date.now();
  const provider = await startTestIdentityProvider(t, redirectUrl, structuredClone(people));
  const gateway = await buildTestApp(t, 'memory', { auth: { oidc: oidcSettings(provider.issuer, { session_hours: 2 }) } }, { clock: { now: () => now } });
  const token = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
  now += 2 * 3600_000 - 1000;
  t.equal((await self(gateway, token)).statusCode, 200, 'a second before the expiry it works');
  now += 1000;
  const expired = await self(gateway, token);
  t.equal(expired.statusCode, 401, 'at the expiry it is refused');
  t.equal(expired.json().message, 'invalid login token');
});

t.test('the provider session carries to the next sign-in, which asks nothing and still starts a new gateway session', async (t) => {
  const { gateway } = await scene(t);
  const jar = new CookieJar();
  const first = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }, jar));
  const second = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'someone-else' }, jar));
  t.equal((await self(gateway, second)).json().data.username, 'grace', 'signed in as the person the provider knows');
  t.not(first, second);
});

for (const driver of ['sqlite', 'redis', 'postgres'] as const) {
  t.test(`on ${driver}: sign-in, the role from the claims, and sign-out`, async (t) => {
    const { gateway } = await scene(t, driver);
    const token = loginTokenOf(t, await signInThroughProvider(gateway, { login: 'grace' }));
    t.match((await self(gateway, token)).json().data, { username: 'grace', role: 'admin' });
    t.same((await gateway.asUser(token, { method: 'POST', url: '/api/sign-out' })).json().data, { session_ended: true });
    t.equal((await self(gateway, token)).statusCode, 401);
  });
}

t.test("a user's own login token still signs in beside single sign-on", async (t) => {
  const { gateway } = await scene(t);
  const own = await gateway.app.gateway.resolve(UserService).create('ada', 'admin');
  t.equal((await self(gateway, own.loginToken)).json().data.username, 'ada');
});
