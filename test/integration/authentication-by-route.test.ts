import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { startFakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { errorHandlerPlugin } from '../../plugins/errors/error-handler.js';
import { apiTokenOf, routeAuthPlugin } from '../../plugins/auth/route-auth.js';
import { InjectionTokens, systemClock } from '../../core/di/injection-tokens.js';
import { AuthFailureLimiter } from '../../core/security/auth-failure-limiter.js';
import { TokenAuthenticator } from '../../core/tokens/token-authenticator.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { gxChannel, gxUpstreamKey, issueToken } from '../helpers/gateway-scenario.js';

// Authentication follows the route the router chose, not the URL as sent: every spelling of
// a path that reaches a route meets that route's guard, and every route declares its guard.

/** An answer off the wire. */
interface WireAnswer {
  status: number;
  body: string;
}

/**
 * One request over a real connection, with the request target exactly as given (`path` may
 * be absolute-form, which `inject` would rewrite) and header lines as given (an array value
 * is sent as that many lines).
 */
function overTheWire(port: number, method: string, path: string, headers: Record<string, string | string[]> = {}, body?: string): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Listens on a free port of 127.0.0.1 and returns it. */
async function listen(gateway: TestApp): Promise<number> {
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return (gateway.app.server.address() as AddressInfo).port;
}

/** What a client reads from an error answer: the status and, in each dialect, the error's code. */
function outcome(answer: WireAnswer): string {
  let code = '';
  try {
    const body = JSON.parse(answer.body) as { error?: { code?: unknown; status?: unknown }; success?: unknown; message?: unknown };
    code = body.error !== undefined ? `${String(body.error.code)} ${String(body.error.status ?? '')}`.trim() : body.success === false ? `envelope: ${String(body.message)}` : 'a body';
  } catch {
    code = 'not JSON';
  }
  return `${answer.status} ${code}`;
}

const pathOf = (pattern: string) =>
  pattern.replace(/:(\w+)/g, (_match, name: string) => (name === 'call' ? 'gx-2.5-pro:generateContent' : name === 'model' ? 'gx-2.5-pro' : 'x1'));

/** Each segment of a path that is not a parameter, changed by `change`. */
const staticSegments = (pattern: string, change: (segment: string) => string) =>
  pathOf(pattern.split('/').map((segment) => (segment.startsWith(':') ? segment : change(segment))).join('/'));

const percentEncoded = (segment: string, lowerHex = false) =>
  [...segment].map((character) => `%${character.charCodeAt(0).toString(16)[lowerHex ? 'toLowerCase' : 'toUpperCase']()}`).join('');
const mixedCase = (segment: string) => [...segment].map((character, index) => (index % 2 === 0 ? character.toUpperCase() : character)).join('');

/** The spellings of a route's path that name the same route. */
function variants(pattern: string, port: number): Array<[string, string]> {
  const plain = pathOf(pattern);
  return [
    ['every static character percent-encoded', staticSegments(pattern, (segment) => percentEncoded(segment))],
    ['the first character of each segment percent-encoded, lower-case hex', staticSegments(pattern, (segment) => (segment === '' ? '' : percentEncoded(segment.slice(0, 1), true) + segment.slice(1)))],
    ['doubled slashes', plain.replaceAll('/', '//')],
    ['absolute form', `http://127.0.0.1:${port}${plain}`],
    ['absolute form naming another host', `HTTP://gateway.example${plain}`],
    ['mixed case', staticSegments(pattern, mixedCase)],
    ['all of these at once', `http://127.0.0.1:${port}/${staticSegments(pattern, (segment) => percentEncoded(mixedCase(segment)))}`],
  ];
}

t.test('a request without a key is refused with 401 however the path of a model route is spelled', async (t) => {
  const gx = await startFakeGxUpstream({ apiKey: gxUpstreamKey });
  t.teardown(() => gx.close());
  const gateway = await buildTestApp(t, 'memory', { providers: [gxChannel('gx', gx.url, { models: ['gx-2.5-pro', 'gx-2.5-flash'] })] });
  const port = await listen(gateway);
  const chat = JSON.stringify({ model: 'gx-2.5-flash', messages: [{ role: 'user', content: 'hi' }] });
  const native = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  const cases: Array<[string, string, string, string]> = [
    ['/%761/chat/completions', chat, 'openai', 'invalid_api_key'],
    ['/v1%62eta/models/gx-2.5-flash:generateContent', native, 'native', 'UNAUTHENTICATED'],
    [`http://127.0.0.1:${port}/v1/chat/completions`, chat, 'openai', 'invalid_api_key'],
    ['//v1//chat//completions', chat, 'openai', 'invalid_api_key'],
    ['/V1/Chat/Completions', chat, 'openai', 'invalid_api_key'],
    ['/V1BETA/models/gx-2.5-flash:generateContent', native, 'native', 'UNAUTHENTICATED'],
  ];
  for (const [path, body, dialect, code] of cases) {
    const answer = await overTheWire(port, 'POST', path, {}, body);
    t.equal(answer.status, 401, `POST ${path} answers 401`);
    const error = JSON.parse(answer.body).error;
    t.equal(dialect === 'native' ? error.status : error.code, code, `in the ${dialect} shape: ${answer.body}`);
  }
  t.equal(gx.requests.length, 0, 'no request reached the upstream');
});

t.test('every registered route answers each spelling of its path as it answers the plain path without credentials', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const port = await listen(gateway);
  const routes = gateway.app.declaredRoutes;
  t.ok(routes.length >= 40, `the gateway declared ${routes.length} routes`);
  const byAuth = new Map<string, number>();
  for (const route of routes) byAuth.set(route.auth, (byAuth.get(route.auth) ?? 0) + 1);
  t.ok(byAuth.get('api-key')! > 0 && byAuth.get('native-api-key')! > 0 && byAuth.get('login')! > 0, 'routes of every kind of guard are walked');

  for (const route of routes) {
    const body = route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE' ? undefined : '{}';
    const plain = await overTheWire(port, route.method, pathOf(route.url), {}, body);
    if (route.auth !== 'none') t.equal(plain.status, 401, `${route.method} ${route.url} (${route.auth}) answers 401 without credentials`);
    const expected = route.method === 'HEAD' ? String(plain.status) : outcome(plain);
    for (const [spelling, path] of variants(route.url, port)) {
      const answer = await overTheWire(port, route.method, path, {}, body);
      t.equal(route.method === 'HEAD' ? String(answer.status) : outcome(answer), expected, `${route.method} ${route.url}, ${spelling}: ${path}`);
    }
  }
});

t.test('different credentials on one request are refused with 400 ambiguous_credentials; the same key twice is accepted', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const port = await listen(gateway);
  const token = await issueToken(t, gateway);
  const other = await issueToken(t, gateway);
  const key = `sk-${token.key}`;
  const otherKey = `sk-${other.key}`;
  const get = (url: string, headers: Record<string, string | string[]> = {}): Promise<LightMyRequestResponse> => gateway.app.inject({ method: 'GET', url, headers });

  const ambiguous: Array<[string, string, Record<string, string | string[]>]> = [
    ['Bearer and another x-gx-api-key', '/v1beta/models', { authorization: `Bearer ${key}`, 'x-gx-api-key': otherKey }],
    ['Bearer and another ?key=', `/v1beta/models?key=${otherKey}`, { authorization: `Bearer ${key}` }],
    ['x-gx-api-key and another ?key=', `/v1beta/models?key=${otherKey}`, { 'x-gx-api-key': key }],
    ['two different ?key=', `/v1beta/models?key=${key}&key=${otherKey}`, {}],
    ['two different x-gx-api-key lines', '/v1beta/models', { 'x-gx-api-key': [key, otherKey] }],
    ['two Authorization lines on the native surface', '/v1beta/models', { authorization: [`Bearer ${key}`, `Bearer ${otherKey}`] }],
    ['x-gx-api-key and another x-goog-api-key', '/v1beta/models', { 'x-gx-api-key': key, 'x-goog-api-key': otherKey }],
    ['Bearer and another x-goog-api-key', '/v1beta/models', { authorization: `Bearer ${key}`, 'x-goog-api-key': otherKey }],
    ['x-goog-api-key and another ?key=', `/v1beta/models?key=${otherKey}`, { 'x-goog-api-key': key }],
    ['two different x-goog-api-key lines', '/v1beta/models', { 'x-goog-api-key': [key, otherKey] }],
  ];
  for (const [what, url, headers] of ambiguous) {
    const response = await get(url, headers);
    t.equal(response.statusCode, 400, `${what}: 400`);
    t.match(response.json(), { error: { code: 400, status: 'INVALID_ARGUMENT', message: /two different credentials.*send one credential/ } }, `${what}: in the native shape, saying to send one`);
  }
  const twoLines = await get('/v1/models', { authorization: [`Bearer ${key}`, `Bearer ${otherKey}`] });
  t.equal(twoLines.statusCode, 400, 'two Authorization lines on /v1: 400');
  t.match(twoLines.json(), { error: { code: 'ambiguous_credentials', type: 'invalid_request_error', message: /Authorization/ } });
  const unknownSecond = await get('/v1/models', { authorization: [`Bearer ${key}`, 'Bearer sk-not-a-key-at-all'] });
  t.equal(unknownSecond.statusCode, 400, 'a valid key does not win over a second, different credential');
  const twoLogins: Record<string, string | string[]> = { authorization: [`Bearer ${token.loginToken}`, `Bearer ${other.loginToken}`] };
  const management = await gateway.app.inject({ method: 'GET', url: '/api/token/', headers: twoLogins });
  t.equal(management.statusCode, 400, 'two different login tokens on the management API: 400');
  t.match(management.json(), { success: false, message: /two different credentials/ });

  const wire = await overTheWire(port, 'GET', '/v1/models', { authorization: [`Bearer ${key}`, `Bearer ${otherKey}`] });
  t.equal(wire.status, 400, 'over a real connection too, where Node keeps only the first Authorization line in request.headers');
  t.match(JSON.parse(wire.body), { error: { code: 'ambiguous_credentials' } });

  const same: Array<[string, string, Record<string, string | string[]>]> = [
    ['Bearer, x-gx-api-key and ?key= with the same key', `/v1beta/models?key=${key}`, { authorization: `Bearer ${key}`, 'x-gx-api-key': key }],
    ['the same Authorization line twice', '/v1beta/models', { authorization: [`Bearer ${key}`, `bearer  ${key}`] }],
    ['the same ?key= twice', `/v1beta/models?key=${key}&key=${key}`, {}],
    ['the same key with and without sk-', `/v1beta/models?key=${token.key}`, { authorization: `Bearer ${key}` }],
    ['x-goog-api-key and x-gx-api-key with the same key', '/v1beta/models', { 'x-goog-api-key': key, 'x-gx-api-key': token.key }],
  ];
  for (const [what, url, headers] of same) t.equal((await get(url, headers)).statusCode, 200, `${what}: accepted`);
  t.equal((await get('/v1/models', { authorization: [`Bearer ${key}`, `Bearer ${key}`] })).statusCode, 200, 'the same Authorization line twice on /v1: accepted');
  t.equal((await get('/v1/models', { authorization: `Bearer ${key}`, 'x-gx-api-key': otherKey })).statusCode, 200, '/v1 reads no x-gx-api-key, so another key there is not a credential');
  const vendorHeaders = { authorization: `Bearer ${key}`, 'x-goog-api-key': otherKey, 'x-api-key': otherKey };
  t.equal((await get('/v1/models', vendorHeaders)).statusCode, 200, '/v1 reads neither x-goog-api-key nor x-api-key');
  t.equal((await get('/v1/models', { 'x-goog-api-key': key })).statusCode, 401, 'a key in x-goog-api-key alone is no credential on /v1');
});

t.test('an app does not start with a route that declares no authentication, or a model route that takes a login token', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  /** An app with route-auth and the routes `register` adds, not yet started. */
  const appWith = (register: (app: FastifyInstance) => void): FastifyInstance => {
    const app = Fastify();
    t.teardown(() => app.close());
    void app.register(errorHandlerPlugin, { bodyLimitMegabytes: 1 });
    void app.register(routeAuthPlugin, {
      authenticator: gateway.app.gateway.resolve(TokenAuthenticator),
      users: gateway.app.gateway.resolve(UserService),
      failures: new AuthFailureLimiter(gateway.config.security.auth_failures, gateway.app.gateway.resolve(InjectionTokens.storeBackend), systemClock),
    });
    void app.register(async (scope) => register(scope));
    return app;
  };
  await t.rejects(
    async () => {
      await appWith((app) => app.get('/internal/stats', async () => ({}))).ready();
    },
    /GET \/internal\/stats declares no authentication/,
    'a route without config.auth',
  );
  await t.rejects(
    async () => {
      await appWith((app) => app.post('/v1/extra', { config: { auth: 'login' } }, async () => ({}))).ready();
    },
    /model route POST \/v1\/extra must take an API key/,
    'a /v1 route that asks for a login token',
  );
  const guarded = appWith((app) => app.post('/v1beta/extra', { config: { auth: 'native-api-key' } }, async () => ({ reached: true })));
  await guarded.ready();
  const refused = await guarded.inject({ method: 'POST', url: '/v1beta/extra', payload: {} });
  t.equal(refused.statusCode, 401, 'a declared guard refuses a request without a key before its handler');
});

t.test('a route that declares messages-api-key takes the key as x-api-key or Bearer, with the same checks', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const token = await issueToken(t, gateway);
  const other = await issueToken(t, gateway);
  const key = `sk-${token.key}`;
  const app = Fastify();
  t.teardown(() => app.close());
  void app.register(errorHandlerPlugin, { bodyLimitMegabytes: 1 });
  void app.register(routeAuthPlugin, {
    authenticator: gateway.app.gateway.resolve(TokenAuthenticator),
    users: gateway.app.gateway.resolve(UserService),
    failures: new AuthFailureLimiter(gateway.config.security.auth_failures, gateway.app.gateway.resolve(InjectionTokens.storeBackend), systemClock),
  });
  void app.register(async (scope) => {
    scope.post('/v1/messages', { config: { auth: 'messages-api-key' } }, async (request) => ({ token: apiTokenOf(request).token.id }));
  });
  await app.ready();
  const post = (headers: Record<string, string | string[]>) => app.inject({ method: 'POST', url: '/v1/messages', headers, payload: {} });

  const fromHeader = await post({ 'x-api-key': key });
  t.equal(fromHeader.statusCode, 200, 'x-api-key, as Claude Code and the Anthropic SDK send it, is accepted');
  t.equal(fromHeader.json().token, token.id, 'and authenticates that key');
  t.equal((await post({ authorization: `Bearer ${key}` })).json().token, token.id, 'so is Authorization: Bearer');
  t.equal((await post({ 'x-api-key': key, authorization: `Bearer ${token.key}` })).statusCode, 200, 'the same key in both places is accepted');

  const missing = await post({ 'x-goog-api-key': key, 'x-gx-api-key': key });
  t.equal(missing.statusCode, 401, 'the native headers are no credential there');
  t.match(missing.json(), { error: { message: /Authorization: Bearer sk-\.\.\. or x-api-key/ } }, 'the 401 says where the key goes');
  t.equal((await post({ 'x-api-key': `sk-${'a'.repeat(48)}` })).statusCode, 401, 'an unknown key in x-api-key is refused');
  const conflicting: Array<[string, Record<string, string | string[]>]> = [
    ['Bearer and another x-api-key', { authorization: `Bearer ${key}`, 'x-api-key': `sk-${other.key}` }],
    ['two different x-api-key lines', { 'x-api-key': [key, `sk-${other.key}`] }],
  ];
  for (const [what, headers] of conflicting) {
    const answer = await post(headers);
    t.equal(answer.statusCode, 400, `${what}: 400`);
    t.match(answer.json(), { error: { code: 'ambiguous_credentials' } }, `${what}: ambiguous_credentials`);
  }
});
