import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig, testEncryptionKey } from '../helpers/test-config.js';

// Guessing is slowed: failed authentications are counted per client address and per key
// prefix in the store, and past `security.auth_failures` they are answered 429.

const randomKey = (prefix = '') => prefix + randomBytes(48).toString('base64').replace(/[^0-9A-Za-z]/g, '').slice(0, 48 - prefix.length);
const bearer = (key: string) => ({ authorization: `Bearer sk-${key}` });

const get = (gateway: TestApp, url: string, headers: Record<string, string>, remoteAddress: string, extra: InjectOptions = {}) =>
  gateway.app.inject({ method: 'GET', url, headers, remoteAddress, ...extra });

/** Asserts a 429 `too_many_auth_failures` with a Retry-After of 1 to 60 seconds. */
function assertRetryAfter(t: Test, response: LightMyRequestResponse, what: string): void {
  t.equal(response.statusCode, 429, `${what}: 429 (got ${response.statusCode}: ${response.body})`);
  const seconds = Number(response.headers['retry-after']);
  t.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `${what}: Retry-After is whole seconds until the window resets (${response.headers['retry-after']})`);
}

function assertOpenAiRefusal(t: Test, response: LightMyRequestResponse, what: string): void {
  assertRetryAfter(t, response, what);
  const { error } = response.json();
  t.equal(error.code, 'too_many_auth_failures', `${what}: the code`);
  t.equal(error.type, 'rate_limit_error', `${what}: the OpenAI type`);
  t.match(error.message, /too many failed authentications.*wait \d+ s/, `${what}: the message says what to do (${error.message})`);
}

/** Sends `count` well-formed wrong keys from `address` and returns the statuses. */
async function wrongKeys(gateway: TestApp, address: string, count: number, prefix = ''): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await get(gateway, '/v1/models', bearer(randomKey(prefix)), address)).statusCode);
  return statuses;
}

t.test('past 20 wrong API keys from one address on /v1/models, the address gets 429 in the OpenAI shape while a right key from elsewhere works', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const token = await issueToken(t, gateway);
  t.same(await wrongKeys(gateway, '203.0.113.7', 20), Array(20).fill(401), 'the first 20 wrong keys get 401');
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', bearer(randomKey()), '203.0.113.7'), 'the 21st wrong key');
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', token.bearer, '203.0.113.7'), 'a right key from the refused address');
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', {}, '203.0.113.7'), 'no key from the refused address');
  t.equal((await get(gateway, '/v1/models', token.bearer, '198.51.100.4')).statusCode, 200, 'a right key from another address gets 200');
  t.equal((await get(gateway, '/v1/models', bearer(randomKey()), '198.51.100.4')).statusCode, 401, 'a wrong key from another address still gets 401');
});

t.test('past 20 wrong login tokens from one address on /api/token/, the address gets 429 in the management envelope', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const login = await gateway.createUser('owner');
  const wrongLogin = () => get(gateway, '/api/token/', { authorization: `Bearer mgu_${randomKey().slice(0, 43)}` }, '203.0.113.8');
  for (let index = 0; index < 20; index += 1) t.equal((await wrongLogin()).statusCode, 401, `wrong login token ${index + 1}: 401`);
  const refused = await wrongLogin();
  assertRetryAfter(t, refused, 'the 21st wrong login token');
  t.equal(refused.json().success, false, 'the envelope says no success');
  t.match(refused.json().message, /too many failed authentications from this address/, `the message (${refused.json().message})`);
  t.equal((await get(gateway, '/api/token/', { authorization: `Bearer ${login}` }, '198.51.100.5')).statusCode, 200, 'the right login token from another address gets 200');
});

t.test('past 20 wrong keys from one address on /v1beta, the address gets 429 in the native shape', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const token = await issueToken(t, gateway);
  for (let index = 0; index < 20; index += 1) {
    t.equal((await get(gateway, `/v1beta/models?key=${randomKey()}`, {}, '203.0.113.9')).statusCode, 401, `wrong ?key= ${index + 1}: 401`);
  }
  const refused = await get(gateway, '/v1beta/models', { 'x-gx-api-key': randomKey() }, '203.0.113.9');
  assertRetryAfter(t, refused, 'the 21st wrong key');
  t.match(refused.json(), { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: /too many failed authentications/ } }, 'the native error shape');
  t.equal((await get(gateway, `/v1beta/models?key=${token.key}`, {}, '198.51.100.6')).statusCode, 200, 'a right key from another address gets 200');
});

t.test('many addresses guessing one key prefix: past max_per_key_prefix failures get 429, a right key with that prefix still works', async (t) => {
  const gateway = await buildTestApp(t, 'memory', { security: { encryption_key: testEncryptionKey, auth_failures: { max_per_key_prefix: 5 } } });
  const token = await issueToken(t, gateway);
  const prefix = token.key.slice(0, 4);
  for (let index = 0; index < 5; index += 1) t.same(await wrongKeys(gateway, `192.0.2.${index + 1}`, 1, prefix), [401], `a guess of the prefix from address ${index + 1}: 401`);
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', bearer(randomKey(prefix)), '192.0.2.50'), 'the 6th guess, from a new address');
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', bearer(randomKey()), '192.0.2.50'), 'the address that guessed past the limit is refused even with another prefix');
  t.same(await wrongKeys(gateway, '192.0.2.60', 1), [401], 'a wrong key with another prefix from a new address: 401');
  t.equal((await get(gateway, '/v1/models', token.bearer, '192.0.2.70')).statusCode, 200, 'the right key with the guessed prefix from a new address gets 200');
});

t.test('IPv6 addresses are counted by their /64: stepping through addresses of one network does not escape the count', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const token = await issueToken(t, gateway);
  for (let index = 1; index <= 20; index += 1) {
    t.same(await wrongKeys(gateway, `2001:db8:1:2::${index.toString(16)}`, 1), [401], `a wrong key from the network's address ${index}: 401`);
  }
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', bearer(randomKey()), '2001:db8:1:2:ffff::1'), 'the 21st, from yet another address of that /64');
  assertOpenAiRefusal(t, await get(gateway, '/v1/models', token.bearer, '2001:db8:1:2::99'), 'a right key from that /64');
  t.equal((await get(gateway, '/v1/models', token.bearer, '2001:db8:1:3::1')).statusCode, 200, 'a right key from the next /64 gets 200');
  t.same(await wrongKeys(gateway, '::ffff:198.51.100.9', 1), [401], 'an IPv4-mapped address is counted as its IPv4 address, apart');
});

t.test('requests without a credential or with a malformed one are not counted', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const token = await issueToken(t, gateway);
  for (let index = 0; index < 25; index += 1) {
    t.equal((await get(gateway, '/v1/models', {}, '203.0.113.10')).statusCode, 401, `no key ${index + 1}: 401`);
    t.equal((await get(gateway, '/v1/models', { authorization: 'Bearer sk-short' }, '203.0.113.10')).statusCode, 401, `a malformed key ${index + 1}: 401`);
  }
  t.equal((await get(gateway, '/v1/models', token.bearer, '203.0.113.10')).statusCode, 200, 'a right key from that address gets 200');
});

t.test('behind a trusted proxy the forwarded client address is counted, not the proxy', async (t) => {
  const gateway = await buildTestApp(t, 'memory', { server: { trust_proxy: ['127.0.0.1'] } });
  const token = await issueToken(t, gateway);
  const through = (client: string, headers: Record<string, string>) => get(gateway, '/v1/models', { ...headers, 'x-forwarded-for': client }, '127.0.0.1');
  for (let index = 0; index < 20; index += 1) t.equal((await through('10.1.2.3', bearer(randomKey()))).statusCode, 401, `wrong key ${index + 1} of one client: 401`);
  assertOpenAiRefusal(t, await through('10.1.2.3', bearer(randomKey())), 'that client past the limit');
  t.equal((await through('10.9.9.9', token.bearer)).statusCode, 200, 'another client through the same proxy gets 200');
});

for (const driver of ['redis', 'postgres'] as const) {
  t.test(`the count is shared by two gateways on one ${driver} store`, async (t) => {
    const config = testConfig(storageFor(t, driver));
    const first = await buildTestApp(t, driver, {}, { config });
    const second = await buildTestApp(t, driver, {}, { config });
    const token = await issueToken(t, first);
    t.same(await wrongKeys(first, '203.0.113.11', 10), Array(10).fill(401), '10 wrong keys through the first: 401');
    t.same(await wrongKeys(second, '203.0.113.11', 10), Array(10).fill(401), '10 more through the second: 401');
    assertOpenAiRefusal(t, await get(second, '/v1/models', bearer(randomKey()), '203.0.113.11'), 'the 21st, through the second');
    assertOpenAiRefusal(t, await get(first, '/v1/models', bearer(randomKey()), '203.0.113.11'), 'the 22nd, through the first');
    t.equal((await get(second, '/v1/models', token.bearer, '198.51.100.7')).statusCode, 200, 'a right key from another address gets 200 through the second');
  });
}

t.test('the window resets: after Retry-After the address is counted afresh', async (t) => {
  const config = testConfig(storageFor(t, 'sqlite'), { security: { encryption_key: testEncryptionKey, auth_failures: { max_per_address: 2, window_ms: 1000 } } });
  const gateway = await buildTestApp(t, 'sqlite', {}, { config });
  const token = await issueToken(t, gateway);
  const address = '203.0.113.12';
  // Wrong keys until one is refused: a slow machine may see a window reset in between.
  let refused: LightMyRequestResponse | undefined;
  for (let attempt = 0; attempt < 50 && refused === undefined; attempt += 1) {
    const response = await get(gateway, '/v1/models', bearer(randomKey()), address);
    if (response.statusCode === 429) refused = response;
    else t.equal(response.statusCode, 401, 'a wrong key within the limit: 401');
  }
  if (refused === undefined) throw new Error('no wrong key was refused');
  t.equal(refused.headers['retry-after'], '1', 'Retry-After: the second left of the window');
  t.equal((await get(gateway, '/v1/models', token.bearer, address)).statusCode, 429, 'the right key from that address is refused meanwhile');
  let status = 429;
  for (let attempt = 0; attempt < 100 && status === 429; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await get(gateway, '/v1/models', token.bearer, address)).statusCode;
  }
  t.equal(status, 200, 'once the window has reset the right key from that address gets 200');
  t.equal((await get(gateway, '/v1/models', bearer(randomKey()), address)).statusCode, 401, 'and a wrong key starts a new count: 401');
});
