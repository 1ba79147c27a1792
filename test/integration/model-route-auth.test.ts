import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import type { Clock } from '../../core/di/injection-tokens.js';
import { InjectionTokens } from '../../core/di/injection-tokens.js';
import { AccessTimeRecorder } from '../../core/tokens/access-time-recorder.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { storageDrivers, storageFor, testConfig } from '../helpers/test-config.js';

/** Fields of POST /api/token/; every token here gets some quota unless a test says otherwise. */
type TokenFields = Record<string, unknown>;

/** A token made through the management API, with its revealed key. */
interface IssuedToken {
  id: number;
  key: string;
  /** `Authorization: Bearer sk-<key>` */
  bearer: { authorization: string };
}

let userCount = 0;

/** What the gx family serves natively, as the native listing names its methods. */
const gxNativeMethods = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents'];

/**
 * Issues tokens through the management API the way a client does: create, find its id in the
 * list (newest first), reveal the key. Each call signs in as a fresh user, so the key-reveal
 * rate limit (per user) is never reached.
 */
async function issueToken(t: Test, gateway: TestApp, fields: TokenFields = {}): Promise<IssuedToken & { loginToken: string }> {
  userCount += 1;
  const loginToken = await gateway.createUser(`user-${userCount}`);
  const created = await gateway.asUser(loginToken, {
    method: 'POST',
    url: '/api/token/',
    payload: { name: 'model routes', remain_quota: 500_000, ...fields },
  });
  t.same(created.json(), { success: true, message: '' }, 'the token is created');
  const listed = await gateway.asUser(loginToken, { method: 'GET', url: '/api/token/?size=1' });
  const id = listed.json().data.items[0].id as number;
  const revealed = await gateway.asUser(loginToken, { method: 'POST', url: `/api/token/${id}/key` });
  const key = revealed.json().data.key as string;
  return { id, key, loginToken, bearer: { authorization: `Bearer sk-${key}` } };
}

/** The token object as GET /api/token/:id shows it. */
async function storedToken(gateway: TestApp, token: { id: number; loginToken: string }): Promise<Record<string, unknown>> {
  const response = await gateway.asUser(token.loginToken, { method: 'GET', url: `/api/token/${token.id}` });
  return response.json().data as Record<string, unknown>;
}

async function setStatus(t: Test, gateway: TestApp, token: { id: number; loginToken: string }, status: 1 | 2): Promise<void> {
  const response = await gateway.asUser(token.loginToken, {
    method: 'PUT',
    url: '/api/token/?status_only=true',
    payload: { id: token.id, status },
  });
  t.equal(response.json().success, true, `the status is set to ${status}`);
}

function get(gateway: TestApp, url: string, options: Omit<InjectOptions, 'url' | 'method'> = {}): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'GET', url, ...options });
}

/** Asserts the OpenAI-style error body of `/v1` with exactly its four fields. */
function assertOpenAiError(t: Test, response: LightMyRequestResponse, status: number, fields: { type: string; code: string }): void {
  t.equal(response.statusCode, status, `answers ${status}`);
  const body = response.json();
  t.same(Object.keys(body), ['error']);
  t.same(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  t.match(body.error, { ...fields, message: String, param: null });
  t.not(body.error.message, '', 'the message says what is wrong');
}

/** Asserts the gx native error body of `/v1beta` with exactly its three fields. */
function assertNativeError(t: Test, response: LightMyRequestResponse, status: number, statusText: string): void {
  t.equal(response.statusCode, status, `answers ${status}`);
  const body = response.json();
  t.same(Object.keys(body), ['error']);
  t.same(Object.keys(body.error).sort(), ['code', 'message', 'status']);
  t.match(body.error, { code: status, status: statusText, message: String });
}

const unknownKey = () => randomBytes(36).toString('base64').replace(/[^0-9A-Za-z]/g, 'x').slice(0, 48);

for (const driver of storageDrivers) {
  t.test(`model routes on the ${driver} store`, async (t) => {
    const gateway = await buildTestApp(t, driver);

    t.test('/v1 accepts Authorization: Bearer sk-<key> and nothing else', async (t) => {
      const token = await issueToken(t, gateway);
      const listed = await get(gateway, '/v1/models', { headers: token.bearer });
      t.equal(listed.statusCode, 200);
      t.equal(listed.json().object, 'list');
      t.equal((await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer })).statusCode, 200);

      const fromHeader = await get(gateway, '/v1/models', { headers: { 'x-gx-api-key': `sk-${token.key}` } });
      assertOpenAiError(t, fromHeader, 401, { type: 'authentication_error', code: 'invalid_api_key' });
      const fromQuery = await get(gateway, `/v1/models?key=sk-${token.key}`);
      assertOpenAiError(t, fromQuery, 401, { type: 'authentication_error', code: 'invalid_api_key' });
      t.equal((await get(gateway, `/v1/models/gx-2.5-pro?key=sk-${token.key}`)).statusCode, 401);
    });

    t.test('/v1beta accepts the key as a Bearer token, as x-gx-api-key, as x-goog-api-key and as ?key=', async (t) => {
      const token = await issueToken(t, gateway);
      const ways: Array<[string, Omit<InjectOptions, 'url' | 'method'>, string]> = [
        ['Bearer', { headers: token.bearer }, ''],
        ['x-gx-api-key', { headers: { 'x-gx-api-key': `sk-${token.key}` } }, ''],
        ['x-goog-api-key (the real vendor header)', { headers: { 'x-goog-api-key': `sk-${token.key}` } }, ''],
        ['?key=', {}, `?key=sk-${token.key}`],
      ];
      for (const [way, options, query] of ways) {
        const listed = await get(gateway, `/v1beta/models${query}`, options);
        t.equal(listed.statusCode, 200, `${way} lists models`);
        t.ok(Array.isArray(listed.json().models), `${way} gets the native list shape`);
        const one = await get(gateway, `/v1beta/models/gx-2.5-pro${query}`, options);
        t.equal(one.statusCode, 200, `${way} retrieves a model`);
        t.same(one.json(), { name: 'models/gx-2.5-pro', displayName: 'gx-2.5-pro', supportedGenerationMethods: gxNativeMethods });
      }
    });

    t.test('a missing, malformed or unknown key is a 401 in the OpenAI shape on /v1', async (t) => {
      const cases: Array<[string, Record<string, string>]> = [
        ['no credentials', {}],
        ['a Basic credential', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['an empty Bearer', { authorization: 'Bearer ' }],
        ['a key that is too short', { authorization: 'Bearer sk-abc123' }],
        ['a key with symbols', { authorization: `Bearer sk-${'a'.repeat(47)}!` }],
        ['an unknown key', { authorization: `Bearer sk-${unknownKey()}` }],
      ];
      for (const [what, headers] of cases) {
        for (const url of ['/v1/models', '/v1/models/gx-2.5-pro']) {
          const response = await get(gateway, url, { headers });
          t.test(`${what} on ${url}`, async (t) => assertOpenAiError(t, response, 401, { type: 'authentication_error', code: 'invalid_api_key' }));
        }
      }
    });

    t.test('a missing, malformed or unknown key is a 401 in the native shape on /v1beta', async (t) => {
      const cases: Array<[string, Omit<InjectOptions, 'url' | 'method'>, string]> = [
        ['no credentials', {}, ''],
        ['a malformed x-gx-api-key', { headers: { 'x-gx-api-key': 'sk-short' } }, ''],
        ['a malformed ?key=', {}, '?key=not-a-key'],
        ['an unknown Bearer key', { headers: { authorization: `Bearer sk-${unknownKey()}` } }, ''],
        ['an unknown x-gx-api-key', { headers: { 'x-gx-api-key': `sk-${unknownKey()}` } }, ''],
        ['a malformed x-goog-api-key', { headers: { 'x-goog-api-key': 'sk-short' } }, ''],
        ['an unknown x-goog-api-key', { headers: { 'x-goog-api-key': `sk-${unknownKey()}` } }, ''],
        ['an unknown ?key=', {}, `?key=sk-${unknownKey()}`],
      ];
      for (const [what, options, query] of cases) {
        for (const path of ['/v1beta/models', '/v1beta/models/gx-2.5-pro']) {
          const response = await get(gateway, `${path}${query}`, options);
          t.test(`${what} on ${path}`, async (t) => assertNativeError(t, response, 401, 'UNAUTHENTICATED'));
        }
      }
    });

    t.test('a disabled token is refused with 401', async (t) => {
      const token = await issueToken(t, gateway);
      await setStatus(t, gateway, token, 2);
      assertOpenAiError(t, await get(gateway, '/v1/models', { headers: token.bearer }), 401, {
        type: 'authentication_error',
        code: 'token_disabled',
      });
      assertNativeError(t, await get(gateway, `/v1beta/models?key=sk-${token.key}`), 401, 'UNAUTHENTICATED');
    });

    t.test('an expired token is refused with 401 and stored with status 3', async (t) => {
      const token = await issueToken(t, gateway, { expired_time: 1_000_000_000 });
      t.equal((await storedToken(gateway, token)).status, 1, 'creation accepts a past expiry and leaves the token enabled');
      assertOpenAiError(t, await get(gateway, '/v1/models', { headers: token.bearer }), 401, {
        type: 'authentication_error',
        code: 'token_expired',
      });
      t.equal((await storedToken(gateway, token)).status, 3, 'the token is now stored as expired');
      assertNativeError(t, await get(gateway, '/v1beta/models', { headers: token.bearer }), 401, 'UNAUTHENTICATED');
      assertOpenAiError(t, await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer }), 401, {
        type: 'authentication_error',
        code: 'token_expired',
      });
    });

    t.test('a token with no quota left is refused with 402 insufficient_quota and stored with status 4', async (t) => {
      const token = await issueToken(t, gateway, { remain_quota: 0 });
      assertOpenAiError(t, await get(gateway, '/v1/models', { headers: token.bearer }), 402, {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      });
      t.equal((await storedToken(gateway, token)).status, 4, 'the token is now stored as exhausted');
      assertNativeError(t, await get(gateway, '/v1beta/models', { headers: token.bearer }), 402, 'RESOURCE_EXHAUSTED');

      const raised = await gateway.asUser(token.loginToken, {
        method: 'PUT',
        url: '/api/token/',
        payload: { id: token.id, remain_quota: 1000, status: 1 },
      });
      t.equal(raised.json().success, true, 'raising the quota allows enabling it again');
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 200, 'and the key works at once');
    });

    t.test('an unlimited token with nothing remaining is accepted', async (t) => {
      const token = await issueToken(t, gateway, { remain_quota: 0, unlimited_quota: true });
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 200);
      t.equal((await get(gateway, '/v1beta/models/gx-2.5-pro', { headers: token.bearer })).statusCode, 200);
      t.equal((await storedToken(gateway, token)).status, 1);
    });

    t.test('allow_ips admits addresses inside its ranges and refuses the rest with 403', async (t) => {
      const token = await issueToken(t, gateway, { allow_ips: '10.0.0.0/8, 192.168.5.7' });
      for (const inside of ['10.1.2.3', '10.255.0.1', '192.168.5.7', '::ffff:10.9.9.9']) {
        const response = await get(gateway, '/v1/models', { headers: token.bearer, remoteAddress: inside });
        t.equal(response.statusCode, 200, `${inside} is allowed`);
      }
      for (const outside of ['11.0.0.1', '192.168.5.8', '127.0.0.1']) {
        const response = await get(gateway, '/v1/models', { headers: token.bearer, remoteAddress: outside });
        assertOpenAiError(t, response, 403, { type: 'permission_error', code: 'access_denied' });
      }
      const native = await get(gateway, '/v1beta/models', { headers: token.bearer, remoteAddress: '11.0.0.1' });
      assertNativeError(t, native, 403, 'PERMISSION_DENIED');
    });

    t.test('X-Forwarded-For is ignored when no proxy is trusted', async (t) => {
      const token = await issueToken(t, gateway, { allow_ips: '10.0.0.0/8' });
      for (const peer of ['127.0.0.1', '172.16.0.1']) {
        const response = await get(gateway, '/v1/models', {
          headers: { ...token.bearer, 'x-forwarded-for': '10.1.2.3' },
          remoteAddress: peer,
        });
        t.equal(response.statusCode, 403, `a forwarded allowed address from peer ${peer} does not count`);
      }
      const fromAllowedPeer = await get(gateway, '/v1/models', {
        headers: { ...token.bearer, 'x-forwarded-for': '172.16.0.1' },
        remoteAddress: '10.1.2.3',
      });
      t.equal(fromAllowedPeer.statusCode, 200, 'the socket peer is the client address');
    });

    t.test('X-Forwarded-For is read right to left when the peer is a trusted proxy', async (t) => {
      const proxied = await buildTestApp(t, driver, { server: { trust_proxy: ['127.0.0.1'] } });
      const token = await issueToken(t, proxied, { allow_ips: '10.0.0.0/8' });
      const cases: Array<[string, string, string, number]> = [
        ['the trusted proxy forwards an allowed client', '127.0.0.1', '10.1.2.3', 200],
        ['the trusted proxy forwards a refused client', '127.0.0.1', '172.16.0.9', 403],
        ['a spoofed left entry is not believed', '127.0.0.1', '10.1.2.3, 172.16.0.9', 403],
        ['entries left of the first untrusted address are ignored', '127.0.0.1', '172.16.0.9, 10.1.2.3', 200],
        ['an untrusted peer cannot forward', '172.16.0.1', '10.1.2.3', 403],
      ];
      for (const [what, peer, forwarded, status] of cases) {
        const response = await get(proxied, '/v1/models', {
          headers: { ...token.bearer, 'x-forwarded-for': forwarded },
          remoteAddress: peer,
        });
        t.equal(response.statusCode, status, what);
      }
    });

    t.test('model_limits narrow the listing and refuse other models with 403', async (t) => {
      const token = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['gx-2.5-pro', 'gx-not-served'] });
      const listed = await get(gateway, '/v1/models', { headers: token.bearer });
      t.same(
        listed.json().data.map((model: { id: string }) => model.id),
        ['gx-2.5-pro'],
        'only allowed models that are served are listed',
      );
      const native = await get(gateway, '/v1beta/models', { headers: token.bearer });
      t.same(native.json().models, [{ name: 'models/gx-2.5-pro', displayName: 'gx-2.5-pro', supportedGenerationMethods: gxNativeMethods }]);

      const allowed = await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer });
      t.equal(allowed.statusCode, 200);
      t.match(allowed.json(), { id: 'gx-2.5-pro', object: 'model' });

      const refused = await get(gateway, '/v1/models/gx-latest', { headers: token.bearer });
      assertOpenAiError(t, refused, 403, { type: 'permission_error', code: 'model_not_allowed' });
      assertNativeError(t, await get(gateway, '/v1beta/models/gx-latest', { headers: token.bearer }), 403, 'PERMISSION_DENIED');

      const unknown = await get(gateway, '/v1/models/gx-not-served', { headers: token.bearer });
      assertOpenAiError(t, unknown, 404, { type: 'invalid_request_error', code: 'model_not_found' });
      assertNativeError(t, await get(gateway, '/v1beta/models/gx-not-served', { headers: token.bearer }), 404, 'NOT_FOUND');
    });

    t.test('each model lists the routes it can be called on: its family\'s operations, and nothing the group cannot reach', async (t) => {
      // The built-in translators add the client formats a family's provider does not speak:
      // Responses and Messages on gx, Messages and the native API on gp, OpenAI embeddings on gx.
      const gxRoutes = [
        'POST /v1/chat/completions',
        'POST /v1/responses',
        'POST /v1/messages',
        'POST /v1beta/models/{model}:generateContent',
        'POST /v1beta/models/{model}:streamGenerateContent',
        'POST /v1beta/models/{model}:embedContent',
        'POST /v1beta/models/{model}:batchEmbedContents',
        'POST /v1/embeddings',
        'POST /v1/images/generations',
        'POST /v1/images/edits',
      ];
      const gpRoutes = ['POST /v1/chat/completions', 'POST /v1/responses', 'POST /v1/messages', 'POST /v1beta/models/{model}:generateContent', 'POST /v1beta/models/{model}:streamGenerateContent'];
      const token = await issueToken(t, gateway, { group: 'auto' });
      const listed = (await get(gateway, '/v1/models', { headers: token.bearer })).json().data as Array<{ id: string; routes: string[] }>;
      t.strictSame(Object.fromEntries(listed.map((model) => [model.id, model.routes])), { 'gp-5.4': gpRoutes, 'gx-2.5-pro': gxRoutes, 'gx-latest': gxRoutes });
      const patterned = (await get(gateway, '/v1/models/gx-3-pro-preview', { headers: token.bearer })).json();
      t.match(patterned, { id: 'gx-3-pro-preview', object: 'model', owned_by: 'model-gateway' });
      t.strictSame(patterned.routes, gxRoutes, 'a model a pattern serves has its routes too');
      const native = (await get(gateway, '/v1beta/models', { headers: token.bearer })).json().models as Array<{ name: string; supportedGenerationMethods: string[] }>;
      t.strictSame(native.find((model) => model.name === 'models/gp-5.4')?.supportedGenerationMethods, ['generateContent', 'streamGenerateContent'], 'gp generates through native-to-chat, and embeds nothing');
    });

    t.test('model_limits enabled with an empty list allow no model', async (t) => {
      const token = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: [] });
      t.same((await get(gateway, '/v1/models', { headers: token.bearer })).json().data, [], 'nothing is listed');
      assertOpenAiError(t, await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer }), 403, {
        type: 'permission_error',
        code: 'model_not_allowed',
      });
      assertNativeError(t, await get(gateway, '/v1beta/models/gx-2.5-pro', { headers: token.bearer }), 403, 'PERMISSION_DENIED');
    });

    t.test('model_limits that are not enabled restrict nothing', async (t) => {
      const token = await issueToken(t, gateway, { model_limits_enabled: false, model_limits: ['gp-5.4'] });
      t.equal((await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer })).statusCode, 200);
    });

    t.test("a token sees the models of its group: vip, the default group, and auto's walk", async (t) => {
      const ids = async (token: IssuedToken) =>
        (await get(gateway, '/v1/models', { headers: token.bearer })).json().data.map((model: { id: string }) => model.id);
      const status = async (token: IssuedToken, url: string) => (await get(gateway, url, { headers: token.bearer })).statusCode;

      const vip = await issueToken(t, gateway, { group: 'vip' });
      t.same(await ids(vip), ['gp-5.4'], 'vip lists gp-5.4 only');
      t.equal(await status(vip, '/v1/models/gp-5.4'), 200);
      t.equal(await status(vip, '/v1/models/gx-2.5-pro'), 404, 'vip cannot reach gx-2.5-pro');
      t.equal(await status(vip, '/v1/models/gx-3-pro-preview'), 404, 'nor a gx-3 model');

      const ungrouped = await issueToken(t, gateway);
      t.same(await ids(ungrouped), ['gx-2.5-pro', 'gx-latest'], 'no group means the default group, with model_map names');
      t.equal(await status(ungrouped, '/v1/models/gp-5.4'), 404);

      const auto = await issueToken(t, gateway, { group: 'auto' });
      t.same(await ids(auto), ['gp-5.4', 'gx-2.5-pro', 'gx-latest'], 'auto lists every group of auto_groups');
      t.equal(await status(auto, '/v1/models/gp-5.4'), 200);
      t.equal(await status(auto, '/v1/models/gx-2.5-pro'), 200);

      for (const token of [ungrouped, auto]) {
        t.equal(await status(token, '/v1/models/gx-3-pro-preview'), 200, 'gx-3* matches on retrieval');
        t.equal(await status(token, '/v1beta/models/gx-3-pro-preview'), 200);
      }
      const native = await get(gateway, '/v1beta/models/gx-3-pro-preview', { headers: ungrouped.bearer });
      t.same(native.json(), { name: 'models/gx-3-pro-preview', displayName: 'gx-3-pro-preview', supportedGenerationMethods: gxNativeMethods });
      t.notOk((await ids(ungrouped)).some((id: string) => id.includes('*')), 'patterns are never listed');
    });

    t.test('disabling a token through the management API refuses its next call at once', async (t) => {
      const token = await issueToken(t, gateway);
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 200, 'the first call caches the token');
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 200);
      await setStatus(t, gateway, token, 2);
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 401, 'the next call is refused');
      await setStatus(t, gateway, token, 1);
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 200, 'enabling it again takes effect at once');

      const deleted = await gateway.asUser(token.loginToken, { method: 'DELETE', url: `/api/token/${token.id}` });
      t.equal(deleted.json().success, true);
      t.equal((await get(gateway, '/v1/models', { headers: token.bearer })).statusCode, 401, 'a deleted token is refused at once');
    });

    t.test('changing model_limits through the management API applies to the next call', async (t) => {
      const token = await issueToken(t, gateway);
      t.equal((await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer })).statusCode, 200);
      const updated = await gateway.asUser(token.loginToken, {
        method: 'PUT',
        url: '/api/token/',
        payload: { id: token.id, model_limits_enabled: true, model_limits: ['gx-latest'] },
      });
      t.equal(updated.json().success, true);
      t.equal((await get(gateway, '/v1/models/gx-2.5-pro', { headers: token.bearer })).statusCode, 403);
      t.equal((await get(gateway, '/v1/models/gx-latest', { headers: token.bearer })).statusCode, 200);
    });

    if (driver === 'redis' || driver === 'postgres') {
      t.test('a token disabled through one instance is refused by another sharing the store within a second', async (t) => {
        const other = await buildTestApp(t, driver, {}, { config: gateway.config });
        const token = await issueToken(t, gateway);
        t.equal((await get(other, '/v1/models', { headers: token.bearer })).statusCode, 200, 'the other instance caches the token');
        t.equal((await get(other, '/v1/models', { headers: token.bearer })).statusCode, 200);
        await setStatus(t, gateway, token, 2);
        const deadline = Date.now() + 1000;
        let status = 0;
        while (Date.now() < deadline) {
          status = (await get(other, '/v1/models', { headers: token.bearer })).statusCode;
          if (status === 401) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        t.equal(status, 401, 'the other instance refuses the key');

        await setStatus(t, other, token, 1);
        const enabledDeadline = Date.now() + 1000;
        while (Date.now() < enabledDeadline) {
          status = (await get(gateway, '/v1/models', { headers: token.bearer })).statusCode;
          if (status === 200) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        t.equal(status, 200, 'and enabling through the other instance reaches the first');
      });
    }

    t.test('accessed_time is written in batches, not on every request', async (t) => {
      let now = 1_900_000_000_000;
      const clock: Clock = { now: () => now };
      const config = testConfig({ ...storageFor(t, driver), access_time_flush_ms: 3_600_000 });
      const batched = await buildTestApp(t, driver, {}, { config, clock });
      const token = await issueToken(t, batched);
      const createdTime = (await storedToken(batched, token)).created_time;
      t.equal(createdTime, now / 1000);
      t.equal((await storedToken(batched, token)).accessed_time, createdTime, 'a new token was last accessed at creation');

      const repository = batched.app.gateway.resolve(InjectionTokens.tokenRepository);
      const writes: Array<Map<number, number>> = [];
      const recordAccessTimes = repository.recordAccessTimes.bind(repository);
      repository.recordAccessTimes = async (times) => {
        writes.push(new Map(times));
        return recordAccessTimes(times);
      };

      for (let call = 1; call <= 5; call += 1) {
        now += 10_000;
        t.equal((await get(batched, '/v1/models', { headers: token.bearer })).statusCode, 200);
      }
      t.equal(writes.length, 0, 'five calls wrote nothing');
      t.equal((await storedToken(batched, token)).accessed_time, createdTime, 'the stored time is unchanged before a flush');

      await batched.app.gateway.resolve(AccessTimeRecorder).flush();
      t.same(writes, [new Map([[token.id, now / 1000]])], 'one flush writes the last access once');
      t.equal((await storedToken(batched, token)).accessed_time, now / 1000, 'the stored time is the last call');

      await batched.app.gateway.resolve(AccessTimeRecorder).flush();
      t.equal(writes.length, 1, 'a flush with nothing new writes nothing');
    });

    t.test('accessed_time is flushed on the configured interval', async (t) => {
      const config = testConfig({ ...storageFor(t, driver), access_time_flush_ms: 150 });
      let now = 1_900_000_000_000;
      const timed = await buildTestApp(t, driver, {}, { config, clock: { now: () => now } });
      const token = await issueToken(t, timed);
      now += 60_000;
      t.equal((await get(timed, '/v1beta/models', { headers: token.bearer })).statusCode, 200);
      const deadline = Date.now() + 2000;
      let accessed = (await storedToken(timed, token)).accessed_time;
      while (accessed !== now / 1000 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        accessed = (await storedToken(timed, token)).accessed_time;
      }
      t.equal(accessed, now / 1000, 'the timer wrote the access time');
    });

    t.test('every response carries an x-request-id header', async (t) => {
      const token = await issueToken(t, gateway);
      const responses = [
        await get(gateway, '/v1/models', { headers: token.bearer }),
        await get(gateway, '/v1/models'),
        await get(gateway, '/v1beta/models/gx-2.5-pro', { headers: token.bearer }),
        await get(gateway, '/v1beta/models'),
        await get(gateway, '/v1/models/gx-unknown', { headers: token.bearer }),
      ];
      const ids = responses.map((response) => response.headers['x-request-id']);
      for (const id of ids) t.match(id, /^\S{8,}$/, 'a request id is present');
      t.equal(new Set(ids).size, ids.length, 'each request has its own id');
    });
  });
}
