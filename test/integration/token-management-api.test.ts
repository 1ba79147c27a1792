import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { storageDrivers, testEncryptionKey } from '../helpers/test-config.js';

/** The fields of spec part 1's token object, and nothing else. */
const tokenObjectFields = [
  'id',
  'user_id',
  'name',
  'key',
  'status',
  'remain_quota',
  'used_quota',
  'unlimited_quota',
  'model_limits_enabled',
  'model_limits',
  'allow_ips',
  'group',
  'cross_group_retry',
  'expired_time',
  'created_time',
  'accessed_time',
  'budget_daily',
  'budget_weekly',
  'budget_monthly',
  'budget_mode',
  'budgets',
].sort();

const fullKeyShape = /^[0-9A-Za-z]{48}$/;

interface TokenObject {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  cross_group_retry: boolean;
  expired_time: number;
  created_time: number;
  accessed_time: number;
}

interface Page {
  items: TokenObject[];
  total: number;
  page: number;
  page_size: number;
}

interface Envelope<Data = unknown> {
  success: boolean;
  message: string;
  data?: Data;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const maskOf = (key: string) => `${key.slice(0, 4)}${'*'.repeat(10)}${key.slice(-4)}`;
const body = <Data = unknown>(response: LightMyRequestResponse) => response.json<Envelope<Data>>();

/** A signed-in user and short-hands for the calls the suite makes as that user. */
interface Client {
  login: string;
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Creates a token (asserting success) and returns its object, found as the newest in the list. */
  create(fields?: Record<string, unknown>): Promise<TokenObject>;
  get(id: number | string): Promise<LightMyRequestResponse>;
  list(query?: Record<string, string>): Promise<LightMyRequestResponse>;
  search(query: Record<string, string>): Promise<LightMyRequestResponse>;
  update(payload: unknown, query?: Record<string, string>): Promise<LightMyRequestResponse>;
  reveal(id: number | string): Promise<LightMyRequestResponse>;
  /** The full key of a token (asserting success). */
  keyOf(id: number): Promise<string>;
}

let userCounter = 0;

async function newClient(testApp: TestApp): Promise<Client> {
  userCounter += 1;
  const login = await testApp.createUser(`user-${userCounter}`);
  const call = (options: InjectOptions) => testApp.asUser(login, options);
  const client: Client = {
    login,
    call,
    async create(fields = {}) {
      const response = await call({ method: 'POST', url: '/api/token/', payload: { name: 'token', ...fields } });
      if (response.statusCode !== 200) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
      const page = body<Page>(await call({ method: 'GET', url: '/api/token/?p=1&size=1' })).data as Page;
      const newest = page.items[0];
      if (newest === undefined) throw new Error('the created token is not listed');
      return newest;
    },
    get: (id) => call({ method: 'GET', url: `/api/token/${id}` }),
    list: (query = {}) => call({ method: 'GET', url: '/api/token/', query }),
    search: (query) => call({ method: 'GET', url: '/api/token/search', query }),
    update: (payload, query = {}) => call({ method: 'PUT', url: '/api/token/', query, payload: payload as InjectOptions['payload'] }),
    reveal: (id) => call({ method: 'POST', url: `/api/token/${id}/key` }),
    async keyOf(id) {
      const response = await call({ method: 'POST', url: `/api/token/${id}/key` });
      if (response.statusCode !== 200) throw new Error(`reveal failed: ${response.statusCode} ${response.body}`);
      return (body<{ key: string }>(response).data as { key: string }).key;
    },
  };
  return client;
}

/** A client error (never a 5xx) in the envelope, whose message names `field`. */
function assertRejected(t: Test, response: LightMyRequestResponse, status: number, field: string | RegExp, what: string): void {
  t.equal(response.statusCode, status, `${what}: HTTP ${status} (got ${response.statusCode}: ${response.body})`);
  t.ok(response.statusCode >= 400 && response.statusCode < 500, `${what}: a client error, not a server error`);
  const envelope = body(response);
  t.equal(envelope.success, false, `${what}: success is false`);
  t.type(envelope.message, 'string', `${what}: message is a string`);
  t.notOk('data' in envelope, `${what}: no data`);
  if (typeof field === 'string') t.match(envelope.message, field, `${what}: message names ${field} (${envelope.message})`);
  else t.match(envelope.message, field, `${what}: message matches ${field} (${envelope.message})`);
}

function assertOk<Data>(t: Test, response: LightMyRequestResponse, what: string): Data {
  t.equal(response.statusCode, 200, `${what}: HTTP 200 (got ${response.statusCode}: ${response.body})`);
  const envelope = body<Data>(response);
  t.equal(envelope.success, true, `${what}: success is true`);
  t.equal(envelope.message, '', `${what}: message is empty`);
  return envelope.data as Data;
}

for (const driver of storageDrivers) {
  t.test(`the token management API on the ${driver} driver`, async (t) => {
    const testApp = await buildTestApp(t, driver);
    const { app } = testApp;

    t.test('every answer uses the {success, message, data} envelope', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'envelope' });
      for (const response of [await alice.list(), await alice.search({ keyword: 'env' }), await alice.get(token.id)]) {
        const envelope = body(response);
        t.strictSame(Object.keys(envelope).sort(), ['data', 'message', 'success']);
        t.equal(envelope.success, true);
        t.equal(envelope.message, '');
      }
    });

    t.test('create answers only {success: true, message: ""}, with no data and no key', async (t) => {
      const alice = await newClient(testApp);
      const response = await alice.call({ method: 'POST', url: '/api/token/', payload: { name: 'fresh' } });
      t.equal(response.statusCode, 200);
      t.strictSame(response.json(), { success: true, message: '' });
      t.notMatch(response.body, /[0-9A-Za-z]{48}/, 'no full key anywhere in the answer');
    });

    t.test('a token object has exactly the spec fields, with the key masked as first 4 + 10 asterisks + last 4', async (t) => {
      const alice = await newClient(testApp);
      const before = nowSeconds();
      const token = await alice.create({ name: 'fields' });
      t.strictSame(Object.keys(token).sort(), tokenObjectFields);
      t.type(token.id, 'number');
      t.ok(Number.isInteger(token.id) && token.id > 0, 'id is a positive integer');
      t.type(token.user_id, 'number');
      t.equal(token.name, 'fields');
      t.type(token.used_quota, 'number');
      t.equal(token.used_quota, 0);
      t.ok(token.created_time >= before - 1 && token.created_time <= nowSeconds() + 1, 'created_time is now in Unix seconds');
      t.type(token.accessed_time, 'number');

      const key = await alice.keyOf(token.id);
      t.match(key, fullKeyShape);
      t.equal(token.key, maskOf(key), 'the listed key is the revealed key masked');
      t.equal(token.key.length, 18);
      t.match(token.key, /^[0-9A-Za-z]{4}\*{10}[0-9A-Za-z]{4}$/);

      const detail = assertOk<TokenObject>(t, await alice.get(token.id), 'get');
      t.strictSame(Object.keys(detail).sort(), tokenObjectFields);
      t.equal(detail.key, maskOf(key), 'the detail key is masked too');
      const found = assertOk<Page>(t, await alice.search({ keyword: 'fields' }), 'search');
      t.equal(found.items[0]?.key, maskOf(key), 'the search key is masked too');
      t.strictSame(Object.keys(found.items[0] ?? {}).sort(), tokenObjectFields);
      const updated = assertOk<TokenObject>(t, await alice.update({ id: token.id, name: 'fields2' }), 'update');
      t.strictSame(Object.keys(updated).sort(), tokenObjectFields);
      t.equal(updated.key, maskOf(key), 'the update answer key is masked too');
    });

    t.test('a created token has the documented defaults', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'defaults' });
      t.hasStrict(token, {
        expired_time: -1,
        remain_quota: 0,
        used_quota: 0,
        unlimited_quota: false,
        model_limits_enabled: false,
        model_limits: '',
        allow_ips: '',
        group: '',
        cross_group_retry: false,
        status: 1,
        budget_daily: null,
        budget_weekly: null,
        budget_monthly: null,
        budget_mode: 'hard',
        budgets: [],
      });
    });

    t.test('create stores every given field; model_limits come back comma-separated and allow_ips as entered', async (t) => {
      const alice = await newClient(testApp);
      const expires = nowSeconds() + 86_400;
      const token = await alice.create({
        name: 'everything',
        expired_time: expires,
        remain_quota: 500_000,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: ['gx-2.5-pro', 'gp-5.4'],
        allow_ips: '10.0.0.1, 192.168.0.0/24',
        group: 'auto',
        cross_group_retry: true,
      });
      t.hasStrict(token, {
        name: 'everything',
        expired_time: expires,
        remain_quota: 500_000,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: 'gx-2.5-pro,gp-5.4',
        group: 'auto',
        cross_group_retry: true,
        status: 1,
      });
      t.type(token.allow_ips, 'string');
      t.strictSame(token.allow_ips.split(/[,\n]/).map((entry) => entry.trim()), ['10.0.0.1', '192.168.0.0/24']);
    });

    t.test('list defaults to page 1 of 20, newest first, with total, page and page_size', async (t) => {
      const alice = await newClient(testApp);
      for (let index = 0; index < 25; index += 1) {
        const response = await alice.call({ method: 'POST', url: '/api/token/', payload: { name: `bulk-${index}` } });
        t.equal(response.statusCode, 200);
      }
      const first = assertOk<Page>(t, await alice.list(), 'list');
      t.equal(first.total, 25);
      t.equal(first.page, 1);
      t.equal(first.page_size, 20);
      t.equal(first.items.length, 20);
      const ids = first.items.map((item) => item.id);
      t.strictSame(ids, [...ids].sort((a, b) => b - a), 'ids descend');
      t.equal(first.items[0]?.name, 'bulk-24', 'the newest is first');

      const second = assertOk<Page>(t, await alice.list({ p: '2' }), 'page 2');
      t.equal(second.items.length, 5);
      t.equal(second.page, 2);
      t.equal(second.total, 25);
      t.equal(second.items.at(-1)?.name, 'bulk-0', 'the oldest is last');
      t.ok(Math.max(...second.items.map((item) => item.id)) < Math.min(...ids), 'page 2 continues where page 1 ended');

      const sized = assertOk<Page>(t, await alice.list({ p: '3', size: '10' }), 'p=3 size=10');
      t.equal(sized.items.length, 5);
      t.equal(sized.page_size, 10);
      t.strictSame(sized.items.map((item) => item.name), ['bulk-4', 'bulk-3', 'bulk-2', 'bulk-1', 'bulk-0']);

      const beyond = assertOk<Page>(t, await alice.list({ p: '4', size: '10' }), 'beyond the end');
      t.strictSame(beyond.items, []);
      t.equal(beyond.total, 25);
    });

    t.test('tokens created at the same time get distinct ids and keys', async (t) => {
      const alice = await newClient(testApp);
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) => alice.call({ method: 'POST', url: '/api/token/', payload: { name: `parallel-${index}` } })),
      );
      t.strictSame(responses.map((response) => response.statusCode), Array(10).fill(200));
      const page = assertOk<Page>(t, await alice.list(), 'list');
      t.equal(page.total, 10);
      t.equal(new Set(page.items.map((item) => item.id)).size, 10, 'distinct ids');
      t.strictSame(page.items.map((item) => item.name).sort(), Array.from({ length: 10 }, (_, index) => `parallel-${index}`).sort());
      const keys = assertOk<{ keys: Record<string, string> }>(
        t,
        await alice.call({ method: 'POST', url: '/api/token/batch/keys', payload: { ids: page.items.map((item) => item.id) } }),
        'batch keys',
      ).keys;
      t.equal(new Set(Object.values(keys)).size, 10, 'distinct keys');
    });

    t.test('a user sees only their own tokens in list and search', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      await alice.create({ name: 'shared-name' });
      const bobs = await bob.create({ name: 'shared-name' });
      const list = assertOk<Page>(t, await bob.list(), 'list');
      t.strictSame(list.items.map((item) => item.id), [bobs.id]);
      t.equal(list.total, 1);
      const found = assertOk<Page>(t, await bob.search({ keyword: 'shared' }), 'search');
      t.strictSame(found.items.map((item) => item.id), [bobs.id]);
      const aliceKey = await alice.keyOf((assertOk<Page>(t, await alice.list(), 'alice list').items[0] as TokenObject).id);
      const byKey = assertOk<Page>(t, await bob.search({ token: aliceKey }), 'search by another user\'s key');
      t.strictSame(byKey.items, [], 'another user\'s key finds nothing');
      t.equal(byKey.total, 0);
    });

    t.test('search by keyword matches the name as a case-insensitive substring', async (t) => {
      const alice = await newClient(testApp);
      const production = await alice.create({ name: 'Production Key' });
      const staging = await alice.create({ name: 'staging' });
      const preprod = await alice.create({ name: 'PREPROD-x' });
      const found = assertOk<Page>(t, await alice.search({ keyword: 'prod' }), 'search prod');
      t.strictSame(found.items.map((item) => item.id), [preprod.id, production.id], 'newest first');
      t.equal(found.total, 2);
      t.equal(found.page, 1);
      t.equal(found.page_size, 20);
      const upper = assertOk<Page>(t, await alice.search({ keyword: 'STAG' }), 'search STAG');
      t.strictSame(upper.items.map((item) => item.id), [staging.id]);
      const all = assertOk<Page>(t, await alice.search({}), 'search without terms');
      t.equal(all.total, 3, 'no terms match every token');
      const none = assertOk<Page>(t, await alice.search({ keyword: 'nothing-like-this' }), 'search no match');
      t.strictSame(none.items, []);
      t.equal(none.total, 0);
    });

    t.test('search pages like the list and accepts size up to 100', async (t) => {
      const alice = await newClient(testApp);
      for (let index = 0; index < 5; index += 1) await alice.create({ name: `paged-${index}` });
      const page = assertOk<Page>(t, await alice.search({ keyword: 'paged', p: '2', size: '2' }), 'p=2 size=2');
      t.strictSame(page.items.map((item) => item.name), ['paged-2', 'paged-1']);
      t.equal(page.total, 5);
      t.equal(page.page, 2);
      t.equal(page.page_size, 2);
      const large = assertOk<Page>(t, await alice.search({ keyword: 'paged', size: '100' }), 'size=100');
      t.equal(large.items.length, 5);
      t.equal(large.page_size, 100);
    });

    t.test('search by token matches part of the key, with or without the sk- prefix, and with % wildcards', async (t) => {
      const alice = await newClient(testApp);
      const target = await alice.create({ name: 'target' });
      const other = await alice.create({ name: 'other' });
      const key = await alice.keyOf(target.id);
      const otherKey = await alice.keyOf(other.id);
      const ids = async (query: Record<string, string>) => assertOk<Page>(t, await alice.search(query), JSON.stringify(query)).items.map((item) => item.id);

      t.strictSame(await ids({ token: key.slice(10, 22) }), [target.id], 'a middle part of the key');
      t.strictSame(await ids({ token: `sk-${key.slice(10, 22)}` }), [target.id], 'the same part with sk-');
      t.strictSame(await ids({ token: key }), [target.id], 'the whole key');
      t.strictSame(await ids({ token: `sk-${key}` }), [target.id], 'the whole key with sk-');
      t.strictSame(await ids({ token: `${key.slice(0, 4)}%${key.slice(-4)}` }), [target.id], 'first4%last4, as the mask shows');
      t.strictSame(await ids({ token: `sk-${key.slice(0, 4)}%${key.slice(-4)}` }), [target.id], 'sk-first4%last4');
      t.strictSame(await ids({ token: `${key.slice(0, 4)}%${key.slice(20, 24)}%${key.slice(-4)}` }), [target.id], 'two wildcards');
      t.strictSame(await ids({ token: `%${key.slice(-6)}` }), [target.id], 'a leading wildcard matches the end');
      t.strictSame(await ids({ token: `${key.slice(0, 6)}%` }), [target.id], 'a trailing wildcard matches the start');
      t.strictSame(await ids({ token: `${otherKey.slice(0, 4)}%${key.slice(-4)}` }), [], 'one key\'s start with another\'s end finds neither');
      t.strictSame(await ids({ token: key.slice(10, 22), keyword: 'other' }), [], 'keyword and token must both match');
      t.strictSame(await ids({ token: key.slice(10, 22), keyword: 'TARG' }), [target.id], 'keyword and token together');
    });

    t.test('search rejects unsafe key patterns and oversized pages with 400', async (t) => {
      const alice = await newClient(testApp);
      await alice.create({ name: 'pattern' });
      const rejected = async (query: Record<string, string>, field: string, what: string) =>
        assertRejected(t, await alice.search(query), 400, field, what);
      await rejected({ token: 'ab%cd%ef%gh' }, 'token', 'three % wildcards');
      await rejected({ token: 'a%b%c%d%e' }, 'token', 'four % wildcards');
      await rejected({ token: 'ab%%cd' }, 'token', '%% in a row');
      await rejected({ token: '%a%' }, 'token', 'one non-% character');
      await rejected({ token: 'a' }, 'token', 'one character');
      await rejected({ token: '%' }, 'token', 'a lone %');
      await rejected({ token: 'sk-a%' }, 'token', 'sk- and one character');
      await rejected({ token: 'ab-cd' }, 'token', 'a hyphen');
      await rejected({ token: 'ab cd' }, 'token', 'a space');
      await rejected({ token: "ab'--" }, 'token', 'a quote');
      await rejected({ token: 'ab_cd' }, 'token', 'an underscore');
      await rejected({ token: 'ab.*' }, 'token', 'a regular expression');
      await rejected({ size: '101' }, 'size', 'size 101');
      await rejected({ size: '1000' }, 'size', 'size 1000');
      await rejected({ size: '0' }, 'size', 'size 0');
      await rejected({ p: '0' }, 'p', 'p 0');
      await rejected({ p: 'abc' }, 'p', 'p abc');
      await rejected({ keyword: 'x'.repeat(31) }, 'keyword', 'a keyword longer than a name can be');
    });

    t.test('get returns one\'s own token by id', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'detail', remain_quota: 42 });
      const detail = assertOk<TokenObject>(t, await alice.get(token.id), 'get');
      t.strictSame(detail, token, 'the same object as listed');
    });

    t.test('a user cannot see another user\'s token', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const token = await alice.create({ name: 'private' });
      const response = await bob.get(token.id);
      assertRejected(t, response, 404, String(token.id), 'another user\'s token');
      t.notMatch(response.body, /private/, 'the name does not leak');
    });

    t.test('get of an unknown id is 404 and of a non-integer id is 400', async (t) => {
      const alice = await newClient(testApp);
      assertRejected(t, await alice.get(987_654), 404, '987654', 'unknown id');
      for (const id of ['abc', '1.5', '-1', '0', '1e3', '01', '99999999999999999999']) {
        assertRejected(t, await alice.get(id), 400, 'id', `id ${id}`);
      }
    });

    t.test('a full update changes the fields and returns the token with a masked key', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'before', remain_quota: 100 });
      const key = await alice.keyOf(token.id);
      const expires = nowSeconds() + 3600;
      const updated = assertOk<TokenObject>(
        t,
        await alice.update({
          id: token.id,
          name: 'after',
          expired_time: expires,
          remain_quota: 2000,
          unlimited_quota: true,
          model_limits_enabled: true,
          model_limits: ['gx-2.5-pro', 'gx-3-flash'],
          allow_ips: '127.0.0.1,10.0.0.0/8',
          group: 'vip',
          cross_group_retry: true,
          status: 2,
        }),
        'update',
      );
      t.hasStrict(updated, {
        id: token.id,
        user_id: token.user_id,
        name: 'after',
        key: maskOf(key),
        status: 2,
        expired_time: expires,
        remain_quota: 2000,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: 'gx-2.5-pro,gx-3-flash',
        group: 'vip',
        cross_group_retry: true,
        created_time: token.created_time,
      });
      t.strictSame(updated.allow_ips.split(/[,\n]/), ['127.0.0.1', '10.0.0.0/8']);
      t.strictSame(assertOk<TokenObject>(t, await alice.get(token.id), 'get after'), updated, 'the stored token matches the answer');
      t.equal(await alice.keyOf(token.id), key, 'the key does not change');

      const partial = assertOk<TokenObject>(t, await alice.update({ id: token.id, name: 'renamed' }), 'partial update');
      t.hasStrict(partial, { name: 'renamed', remain_quota: 2000, group: 'vip', status: 2, model_limits: 'gx-2.5-pro,gx-3-flash' }, 'fields left out stay');

      const cleared = assertOk<TokenObject>(t, await alice.update({ id: token.id, model_limits: [], allow_ips: '', group: '' }), 'clearing');
      t.hasStrict(cleared, { model_limits: '', allow_ips: '', group: '' });
    });

    t.test('status_only=true changes only the status and ignores other fields in the body', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'status', remain_quota: 10 });
      const disabled = assertOk<TokenObject>(
        t,
        await alice.update({ id: token.id, status: 2, name: 'ignored', remain_quota: 999, group: 'vip' }, { status_only: 'true' }),
        'disable',
      );
      t.hasStrict(disabled, { status: 2, name: 'status', remain_quota: 10, group: '' });
      const enabled = assertOk<TokenObject>(t, await alice.update({ id: token.id, status: 1 }, { status_only: 'true' }), 'enable');
      t.hasStrict(enabled, { status: 1, name: 'status', remain_quota: 10 });
      t.strictSame(assertOk<TokenObject>(t, await alice.get(token.id), 'get'), enabled);
    });

    t.test('status_only=true without a status is 400 naming status', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'no-status', remain_quota: 10 });
      assertRejected(t, await alice.update({ id: token.id, name: 'x' }, { status_only: 'true' }), 400, 'status', 'no status');
      assertRejected(t, await alice.update({ id: token.id, status: 2 }, { status_only: 'maybe' }), 400, 'status_only', 'status_only=maybe');
      t.hasStrict(assertOk<TokenObject>(t, await alice.get(token.id), 'get'), { name: 'no-status', status: 1 }, 'nothing changed');
    });

    t.test('enabling an expired token fails with 400 telling to change the expiry or set -1', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'expired', remain_quota: 100, expired_time: nowSeconds() - 60 });
      assertOk(t, await alice.update({ id: token.id, status: 2 }, { status_only: 'true' }), 'disable');
      for (const [payload, query] of [
        [{ id: token.id, status: 1 }, { status_only: 'true' }],
        [{ id: token.id, status: 1, expired_time: nowSeconds() + 3600 }, { status_only: 'true' }],
        [{ id: token.id, status: 1 }, {}],
        [{ id: token.id, status: 1, name: 'still-expired' }, {}],
      ] as const) {
        const response = await alice.update(payload, query);
        assertRejected(t, response, 400, /expir/i, `enable with ${JSON.stringify(payload)} ${JSON.stringify(query)}`);
        t.match(body(response).message, /-1/, 'the message mentions -1 for never');
      }
      t.hasStrict(assertOk<TokenObject>(t, await alice.get(token.id), 'get'), { status: 2, name: 'expired' }, 'the token is unchanged');
    });

    t.test('enabling with a new future expired_time in the same full update succeeds', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'renew', remain_quota: 100, expired_time: nowSeconds() - 60 });
      assertOk(t, await alice.update({ id: token.id, status: 2 }, { status_only: 'true' }), 'disable');
      const later = nowSeconds() + 3600;
      t.hasStrict(assertOk<TokenObject>(t, await alice.update({ id: token.id, status: 1, expired_time: later }), 'renew'), { status: 1, expired_time: later });
      assertOk(t, await alice.update({ id: token.id, status: 2 }, { status_only: 'true' }), 'disable again');
      t.hasStrict(assertOk<TokenObject>(t, await alice.update({ id: token.id, status: 1, expired_time: -1 }), 'never expires'), { status: 1, expired_time: -1 });
    });

    t.test('enabling a token with no quota left and no unlimited quota fails with 400', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'empty' });
      assertOk(t, await alice.update({ id: token.id, status: 2 }, { status_only: 'true' }), 'disable');
      assertRejected(t, await alice.update({ id: token.id, status: 1 }, { status_only: 'true' }), 400, /quota/, 'status only');
      assertRejected(t, await alice.update({ id: token.id, status: 1 }), 400, /quota/, 'full update');
      t.equal(body<TokenObject>(await alice.get(token.id)).data?.status, 2, 'still disabled');
      t.hasStrict(assertOk<TokenObject>(t, await alice.update({ id: token.id, status: 1, remain_quota: 5 }), 'with quota'), { status: 1, remain_quota: 5 });
      const other = await alice.create({ name: 'empty-2' });
      assertOk(t, await alice.update({ id: other.id, status: 2 }, { status_only: 'true' }), 'disable other');
      t.hasStrict(assertOk<TokenObject>(t, await alice.update({ id: other.id, status: 1, unlimited_quota: true }), 'unlimited'), { status: 1, unlimited_quota: true });
    });

    t.test('statuses 3 and 4 cannot be set by a client', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'gateway-status', remain_quota: 10 });
      for (const status of [3, 4, 0, 5, '1', true]) {
        assertRejected(t, await alice.update({ id: token.id, status }), 400, 'status', `status ${JSON.stringify(status)}`);
        assertRejected(t, await alice.update({ id: token.id, status }, { status_only: 'true' }), 400, 'status', `status_only status ${JSON.stringify(status)}`);
      }
      t.equal(body<TokenObject>(await alice.get(token.id)).data?.status, 1);
    });

    t.test('a user cannot update another user\'s token', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const token = await alice.create({ name: 'alice-only', remain_quota: 10 });
      assertRejected(t, await bob.update({ id: token.id, name: 'stolen' }), 404, String(token.id), 'full update');
      assertRejected(t, await bob.update({ id: token.id, status: 2 }, { status_only: 'true' }), 404, String(token.id), 'status only');
      assertRejected(t, await alice.update({ id: 987_654, name: 'x' }), 404, '987654', 'unknown id');
      t.hasStrict(body<TokenObject>(await alice.get(token.id)).data, { name: 'alice-only', status: 1 });
    });

    t.test('server-owned fields echoed back on create and update are ignored, not errors', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'echo', remain_quota: 10, key: 'x'.repeat(48), user_id: 999, used_quota: 5, created_time: 1, accessed_time: 2 });
      t.not(token.user_id, 999);
      t.equal(token.used_quota, 0);
      t.not(token.created_time, 1);
      const key = await alice.keyOf(token.id);
      t.not(key, 'x'.repeat(48));

      const echoed = assertOk<TokenObject>(
        t,
        await alice.update({ id: token.id, name: 'echoed', key: 'abcd**********wxyz', user_id: 999, used_quota: 77, created_time: 1, accessed_time: 2 }),
        'update with echoed fields',
      );
      t.hasStrict(echoed, { name: 'echoed', user_id: token.user_id, used_quota: 0, created_time: token.created_time, key: maskOf(key) });
      t.equal(await alice.keyOf(token.id), key, 'the key is unchanged');

      // The whole object from a read, sent back with model_limits as the input's array.
      const read = body<TokenObject>(await alice.get(token.id)).data as TokenObject;
      const roundTrip = assertOk<TokenObject>(
        t,
        await alice.update({ ...read, model_limits: read.model_limits === '' ? [] : read.model_limits.split(','), name: 'round-trip' }),
        'round trip',
      );
      t.strictSame({ ...roundTrip, name: read.name }, read, 'only the name changed');
    });

    t.test('delete removes one\'s own token; get and delete then answer 404', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'doomed' });
      const kept = await alice.create({ name: 'kept' });
      const response = await alice.call({ method: 'DELETE', url: `/api/token/${token.id}` });
      t.equal(response.statusCode, 200);
      t.strictSame(response.json(), { success: true, message: '' });
      assertRejected(t, await alice.get(token.id), 404, String(token.id), 'get after delete');
      assertRejected(t, await alice.call({ method: 'DELETE', url: `/api/token/${token.id}` }), 404, String(token.id), 'delete again');
      assertRejected(t, await alice.reveal(token.id), 404, String(token.id), 'reveal after delete');
      const list = assertOk<Page>(t, await alice.list(), 'list');
      t.strictSame(list.items.map((item) => item.id), [kept.id]);
      t.equal(list.total, 1);
    });

    t.test('a user cannot delete another user\'s token', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const token = await alice.create({ name: 'alice-keeps' });
      assertRejected(t, await bob.call({ method: 'DELETE', url: `/api/token/${token.id}` }), 404, String(token.id), 'delete');
      assertOk(t, await alice.get(token.id), 'still there');
      for (const id of ['abc', '0', '-1', '1.5']) {
        assertRejected(t, await alice.call({ method: 'DELETE', url: `/api/token/${id}` }), 400, 'id', `delete id ${id}`);
      }
    });

    t.test('batch delete removes only the caller\'s tokens and returns how many', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const [a1, a2, a3] = [await alice.create({ name: 'a1' }), await alice.create({ name: 'a2' }), await alice.create({ name: 'a3' })];
      const b1 = await bob.create({ name: 'b1' });
      const response = await alice.call({ method: 'POST', url: '/api/token/batch', payload: { ids: [a1!.id, a2!.id, b1.id, 987_654, a1!.id] } });
      t.strictSame(response.json(), { success: true, message: '', data: 2 });
      t.strictSame(assertOk<Page>(t, await alice.list(), 'alice list').items.map((item) => item.id), [a3!.id]);
      assertOk(t, await bob.get(b1.id), 'bob keeps his token');
      const none = await bob.call({ method: 'POST', url: '/api/token/batch', payload: { ids: [a3!.id] } });
      t.strictSame(none.json(), { success: true, message: '', data: 0 }, 'another user\'s ids delete nothing');
      assertOk(t, await alice.get(a3!.id), 'alice keeps a3');
    });

    t.test('batch delete rejects missing, empty, oversized or non-integer ids with 400', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'survivor' });
      const ids101 = Array.from({ length: 101 }, (_, index) => index + 1);
      for (const [payload, what] of [
        [{}, 'missing ids'],
        [{ ids: [] }, 'empty ids'],
        [{ ids: ids101 }, '101 ids'],
        [{ ids: [1.5] }, 'a fractional id'],
        [{ ids: [0] }, 'id 0'],
        [{ ids: [-1] }, 'a negative id'],
        [{ ids: [String(token.id)] }, 'a string id'],
        [{ ids: String(token.id) }, 'ids as a string'],
        [{ ids: null }, 'ids null'],
        [{ ids: [token.id, null] }, 'a null id'],
      ] as const) {
        assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch', payload }), 400, 'ids', what);
      }
      assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch', payload: { ids: [token.id], all: true } }), 400, 'all', 'an unknown field');
      assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch', payload: [token.id] }), 400, 'body', 'an array body');
      assertOk(t, await alice.get(token.id), 'nothing was deleted');
      const hundred = await alice.call({ method: 'POST', url: '/api/token/batch', payload: { ids: Array.from({ length: 100 }, (_, index) => 900_000 + index) } });
      t.strictSame(hundred.json(), { success: true, message: '', data: 0 }, '100 ids are allowed');
    });

    t.test('reveal returns the full 48-character key without sk- and is not cached', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'reveal' });
      const response = await alice.reveal(token.id);
      const data = assertOk<{ key: string }>(t, response, 'reveal');
      t.strictSame(Object.keys(data), ['key']);
      t.match(data.key, fullKeyShape);
      t.notOk(data.key.startsWith('sk-'));
      t.equal(response.headers['cache-control'], 'no-store');
      t.equal(await alice.keyOf(token.id), data.key, 'the same key every time');
      const second = await alice.create({ name: 'reveal-2' });
      t.not(await alice.keyOf(second.id), data.key, 'each token has its own key');
    });

    t.test('a user cannot reveal another user\'s key', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const token = await alice.create({ name: 'secret' });
      const response = await bob.reveal(token.id);
      assertRejected(t, response, 404, String(token.id), 'another user\'s key');
      t.notMatch(response.body, /[0-9A-Za-z]{48}/);
      assertRejected(t, await alice.reveal(987_654), 404, '987654', 'unknown id');
      assertRejected(t, await alice.reveal('abc'), 400, 'id', 'id abc');
    });

    t.test('batch keys maps string ids to full keys of the caller\'s own tokens only', async (t) => {
      const alice = await newClient(testApp);
      const bob = await newClient(testApp);
      const a1 = await alice.create({ name: 'k1' });
      const a2 = await alice.create({ name: 'k2' });
      const b1 = await bob.create({ name: 'k3' });
      const response = await alice.call({ method: 'POST', url: '/api/token/batch/keys', payload: { ids: [a1.id, a2.id, b1.id, 987_654, a1.id] } });
      const data = assertOk<{ keys: Record<string, string> }>(t, response, 'batch keys');
      t.strictSame(Object.keys(data), ['keys']);
      t.strictSame(Object.keys(data.keys).sort(), [String(a1.id), String(a2.id)].sort());
      t.equal(data.keys[String(a1.id)], await alice.keyOf(a1.id));
      t.equal(data.keys[String(a2.id)], await alice.keyOf(a2.id));
      for (const key of Object.values(data.keys)) t.match(key, fullKeyShape);
      t.equal(response.headers['cache-control'], 'no-store');
      t.notMatch(response.body, await bob.keyOf(b1.id), 'bob\'s key does not leak');
    });

    t.test('batch keys takes at most 100 ids and rejects an empty or missing list', async (t) => {
      const alice = await newClient(testApp);
      const path = '/api/token/batch/keys';
      assertOk(t, await alice.call({ method: 'POST', url: path, payload: { ids: Array.from({ length: 100 }, (_, index) => index + 1) } }), '100 ids');
      for (const [payload, what] of [
        [{ ids: Array.from({ length: 101 }, (_, index) => index + 1) }, '101 ids'],
        [{ ids: [] }, 'empty ids'],
        [{}, 'missing ids'],
        [{ ids: ['1'] }, 'a string id'],
        [{ ids: [1.5] }, 'a fractional id'],
      ] as const) {
        assertRejected(t, await alice.call({ method: 'POST', url: path, payload }), 400, 'ids', what);
      }
    });

    t.test('every endpoint answers 401 in the envelope without a valid login token', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'auth' });
      const endpoints: InjectOptions[] = [
        { method: 'GET', url: '/api/token/' },
        { method: 'GET', url: '/api/token/search?keyword=a' },
        { method: 'GET', url: `/api/token/${token.id}` },
        { method: 'POST', url: '/api/token/', payload: { name: 'x' } },
        { method: 'POST', url: '/api/token/', payload: { bad: true } },
        { method: 'PUT', url: '/api/token/', payload: { id: token.id, name: 'x' } },
        { method: 'DELETE', url: `/api/token/${token.id}` },
        { method: 'POST', url: '/api/token/batch', payload: { ids: [token.id] } },
        { method: 'POST', url: `/api/token/${token.id}/key` },
        { method: 'POST', url: '/api/token/batch/keys', payload: { ids: [token.id] } },
      ];
      for (const endpoint of endpoints) {
        const what = `${endpoint.method} ${endpoint.url}`;
        assertRejected(t, await app.inject(endpoint), 401, /login token/, `${what} without Authorization`);
        assertRejected(t, await testApp.asUser('not-a-real-login-token', endpoint), 401, /login token/, `${what} with a wrong login token`);
        assertRejected(
          t,
          await app.inject({ ...endpoint, headers: { authorization: `Basic ${alice.login}` } }),
          401,
          /login token/,
          `${what} with a non-Bearer scheme`,
        );
      }
      assertRejected(t, await app.inject({ method: 'GET', url: '/api/token/', headers: { authorization: 'Bearer' } }), 401, /login token/, 'an empty Bearer');
      const still = assertOk<TokenObject>(t, await alice.get(token.id), 'the token is untouched');
      t.equal(still.name, 'auth');
    });

    t.test('create rejects bad input with 400 naming the field', async (t) => {
      const alice = await newClient(testApp);
      const create = (payload: unknown) => alice.call({ method: 'POST', url: '/api/token/', payload: payload as InjectOptions['payload'] });
      const cases: Array<[unknown, string, string]> = [
        [{}, 'name', 'missing name'],
        [{ remain_quota: 5 }, 'name', 'missing name with other fields'],
        [{ name: '' }, 'name', 'an empty name'],
        [{ name: '   ' }, 'name', 'a blank name'],
        [{ name: 'x'.repeat(31) }, 'name', 'a name of 31 characters'],
        [{ name: '汉'.repeat(31) }, 'name', 'a name of 31 CJK characters'],
        [{ name: '😀'.repeat(31) }, 'name', 'a name of 31 emoji'],
        [{ name: 5 }, 'name', 'a numeric name'],
        [{ name: null }, 'name', 'a null name'],
        [{ name: 'ok', remain_quota: 'x' }, 'remain_quota', 'a string remain_quota'],
        [{ name: 'ok', remain_quota: -1 }, 'remain_quota', 'a negative remain_quota'],
        [{ name: 'ok', remain_quota: 1.5 }, 'remain_quota', 'a fractional remain_quota'],
        [{ name: 'ok', unlimited_quota: 'yes' }, 'unlimited_quota', 'unlimited_quota "yes"'],
        [{ name: 'ok', unlimited_quota: 1 }, 'unlimited_quota', 'unlimited_quota 1'],
        [{ name: 'ok', model_limits_enabled: 'true' }, 'model_limits_enabled', 'model_limits_enabled "true"'],
        [{ name: 'ok', model_limits: 'a,b' }, 'model_limits', 'model_limits as a string'],
        [{ name: 'ok', model_limits: [1] }, 'model_limits', 'a numeric model name'],
        [{ name: 'ok', model_limits: [''] }, 'model_limits', 'an empty model name'],
        [{ name: 'ok', model_limits: ['a,b'] }, 'model_limits', 'a model name with a comma, which the comma-separated output would split'],
        [{ name: 'ok', expired_time: 1.5 }, 'expired_time', 'a fractional expired_time'],
        [{ name: 'ok', expired_time: 0 }, 'expired_time', 'expired_time 0'],
        [{ name: 'ok', expired_time: -2 }, 'expired_time', 'expired_time -2'],
        [{ name: 'ok', expired_time: '-1' }, 'expired_time', 'expired_time as a string'],
        [{ name: 'ok', allow_ips: ['10.0.0.1'] }, 'allow_ips', 'allow_ips as an array'],
        [{ name: 'ok', allow_ips: '10.0.0.1,not-an-ip' }, 'allow_ips', 'an invalid allow_ips entry'],
        [{ name: 'ok', allow_ips: '10.0.0.0/33' }, 'allow_ips', 'an invalid CIDR prefix'],
        [{ name: 'ok', group: 'nonexistent' }, 'group', 'an unknown group'],
        [{ name: 'ok', group: 5 }, 'group', 'a numeric group'],
        [{ name: 'ok', cross_group_retry: 'no' }, 'cross_group_retry', 'cross_group_retry "no"'],
        [{ name: 'ok', expire_time: -1 }, 'expire_time', 'an unknown field'],
        [{ name: 'ok', Name: 'x' }, 'Name', 'a field in the wrong case'],
        [[{ name: 'ok' }], 'body', 'a JSON array body'],
        ['"just a string"', 'body', 'a JSON string body'],
        [null, 'body', 'a JSON null body'],
      ];
      for (const [payload, field, what] of cases) {
        const response =
          typeof payload === 'string' || payload === null
            ? await alice.call({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'application/json' }, payload: String(payload) })
            : await create(payload);
        assertRejected(t, response, 400, field, what);
      }
      assertRejected(
        t,
        await alice.call({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'application/json' }, payload: '{"name": "ok"' }),
        400,
        /JSON/,
        'a body that is not JSON',
      );
      assertRejected(
        t,
        await alice.call({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'application/json' }, payload: '' }),
        400,
        /JSON|body/,
        'an empty JSON body',
      );
      const notJson = await alice.call({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'text/plain' }, payload: 'name=ok' });
      t.ok(notJson.statusCode >= 400 && notJson.statusCode < 500, `a text/plain body is a client error (got ${notJson.statusCode})`);
      t.equal(body(notJson).success, false);
      t.equal(assertOk<Page>(t, await alice.list(), 'list').total, 0, 'no bad request created a token');
      for (const payload of ['{"name": "ok", "__proto__": {"admin": true}}', '{"name": "ok", "constructor": {"prototype": {"admin": true}}}']) {
        const response = await alice.call({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'application/json' }, payload });
        t.ok(response.statusCode < 500, `a body with a prototype key is not a server error (got ${response.statusCode}: ${response.body})`);
        t.equal((({}) as Record<string, unknown>).admin, undefined, 'no prototype was polluted');
      }
    });

    t.test('a name of 30 characters is accepted, counted in characters not bytes', async (t) => {
      const alice = await newClient(testApp);
      for (const name of ['x'.repeat(30), '汉'.repeat(30), '😀'.repeat(30), `${'é'.repeat(15)}${'👍'.repeat(15)}`]) {
        const token = await alice.create({ name });
        t.equal(token.name, name, `${[...name].length} characters, ${Buffer.byteLength(name)} bytes`);
      }
      const token = await alice.create({ name: 'short' });
      t.equal(assertOk<TokenObject>(t, await alice.update({ id: token.id, name: '😀'.repeat(30) }), 'update to 30 emoji').name, '😀'.repeat(30));
      assertRejected(t, await alice.update({ id: token.id, name: '😀'.repeat(31) }), 400, 'name', 'update to 31 emoji');
    });

    t.test('a name with a control character, a bidirectional control or a lone surrogate is refused on create and update with 400 naming name', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'clean' });
      const refused: Array<[string, string]> = [
        ['NUL', 'a\u0000b'],
        ['ESC (an ANSI colour sequence)', '\u001b[31mred'],
        ['CR', 'a\rb'],
        ['LF', 'line\nforged'],
        ['TAB', 'a\tb'],
        ['DEL', 'a\u007fb'],
        ['a C1 control (CSI)', 'a\u009bb'],
        ['U+202E right-to-left override', 'invoice\u202Etxt.exe'],
        ['U+202A left-to-right embedding', 'a\u202Ab'],
        ['U+2066 left-to-right isolate', 'a\u2066b'],
        ['U+2069 pop directional isolate', 'a\u2069b'],
        ['U+200F right-to-left mark', 'a\u200Fb'],
        ['U+061C Arabic letter mark', 'a\u061Cb'],
        ['U+2028 line separator', 'a\u2028b'],
        ['a lone high surrogate', 'a\uD83Db'],
        ['a lone low surrogate', 'a\uDE00'],
      ];
      for (const [what, name] of refused) {
        for (const [operation, response] of [
          ['create', await alice.call({ method: 'POST', url: '/api/token/', payload: { name } })],
          ['update', await alice.update({ id: token.id, name })],
        ] as const) {
          assertRejected(t, response, 400, /^name: must not contain .*(control|surrogate)/, `${operation} with ${what}`);
        }
      }
      t.equal(assertOk<Page>(t, await alice.list(), 'list').total, 1, 'no refused name created a token');
      t.equal(assertOk<TokenObject>(t, await alice.get(token.id), 'get').name, 'clean', 'no refused name was stored');
    });

    t.test('names in ordinary Unicode are accepted and shown back as given', async (t) => {
      const alice = await newClient(testApp);
      const names = ['Café crème', '生产环境 密钥', '🔑 prod 🚀', '👩‍💻 team key', 'Ünïcödé ñame', 'مفتاح الإنتاج', 'ключ  два пробела'];
      for (const name of names) t.equal((await alice.create({ name })).name, name, `create: ${name}`);
      const token = await alice.create({ name: 'plain' });
      for (const name of names) t.equal(assertOk<TokenObject>(t, await alice.update({ id: token.id, name }), `update to ${name}`).name, name, `update: ${name}`);
    });

    t.test('update rejects bad input with 400 naming the field', async (t) => {
      const alice = await newClient(testApp);
      const token = await alice.create({ name: 'target', remain_quota: 10 });
      const cases: Array<[unknown, string, string]> = [
        [{ name: 'x' }, 'id', 'missing id'],
        [{ id: 'abc', name: 'x' }, 'id', 'a string id'],
        [{ id: String(token.id), name: 'x' }, 'id', 'a numeric string id'],
        [{ id: 1.5, name: 'x' }, 'id', 'a fractional id'],
        [{ id: 0, name: 'x' }, 'id', 'id 0'],
        [{ id: token.id, name: 'x'.repeat(31) }, 'name', 'a name of 31 characters'],
        [{ id: token.id, name: '' }, 'name', 'an empty name'],
        [{ id: token.id, name: 5 }, 'name', 'a numeric name'],
        [{ id: token.id, remain_quota: 'x' }, 'remain_quota', 'a string remain_quota'],
        [{ id: token.id, remain_quota: -1 }, 'remain_quota', 'a negative remain_quota'],
        [{ id: token.id, unlimited_quota: 'yes' }, 'unlimited_quota', 'unlimited_quota "yes"'],
        [{ id: token.id, model_limits: 'a,b' }, 'model_limits', 'model_limits as a string'],
        [{ id: token.id, expired_time: 1.5 }, 'expired_time', 'a fractional expired_time'],
        [{ id: token.id, expired_time: 0 }, 'expired_time', 'expired_time 0'],
        [{ id: token.id, group: 'nonexistent' }, 'group', 'an unknown group'],
        [{ id: token.id, allow_ips: '300.1.1.1' }, 'allow_ips', 'an invalid allow_ips entry'],
        [{ id: token.id, expire_time: -1 }, 'expire_time', 'an unknown field'],
        [[{ id: token.id }], 'body', 'a JSON array body'],
      ];
      for (const [payload, field, what] of cases) assertRejected(t, await alice.update(payload), 400, field, what);
      assertRejected(
        t,
        await alice.call({ method: 'PUT', url: '/api/token/', headers: { 'content-type': 'application/json' }, payload: 'not json' }),
        400,
        /JSON/,
        'a body that is not JSON',
      );
      assertRejected(t, await alice.call({ method: 'PUT', url: '/api/token/' }), 400, 'body', 'no body at all');
      assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch' }), 400, 'body', 'batch delete with no body');
      assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch/keys' }), 400, 'body', 'batch keys with no body');
      t.hasStrict(body<TokenObject>(await alice.get(token.id)).data, { name: 'target', remain_quota: 10, group: '', allow_ips: '' }, 'nothing changed');
    });

    t.test('list rejects bad paging with 400 naming the parameter', async (t) => {
      const alice = await newClient(testApp);
      for (const [query, field] of [
        [{ p: '0' }, 'p'],
        [{ p: 'abc' }, 'p'],
        [{ p: '-1' }, 'p'],
        [{ p: '1.5' }, 'p'],
        [{ size: '0' }, 'size'],
        [{ size: 'abc' }, 'size'],
        [{ size: '101' }, 'size'],
      ] as const) {
        assertRejected(t, await alice.list(query), 400, field, `list ${JSON.stringify(query)}`);
      }
      assertRejected(t, await alice.call({ method: 'GET', url: '/api/token/?p=1&p=2' }), 400, 'p', 'p given twice');
      assertRejected(t, await alice.call({ method: 'GET', url: '/api/token/search?keyword=a&keyword=b' }), 400, 'keyword', 'keyword given twice');
      assertRejected(t, await alice.call({ method: 'GET', url: '/api/token/search?token=abcd&token=efgh' }), 400, 'token', 'token given twice');
      t.equal(assertOk<Page>(t, await alice.list({ size: '100' }), 'size=100').page_size, 100);
    });
  });

  t.test(`key reveal is rate limited per user on the ${driver} driver`, async (t) => {
    const testApp = await buildTestApp(t, driver, { security: { encryption_key: testEncryptionKey, key_reveal_per_minute: 3 } });
    const alice = await newClient(testApp);
    const bob = await newClient(testApp);
    const token = await alice.create({ name: 'limited' });
    const bobs = await bob.create({ name: 'bob' });
    for (let call = 1; call <= 3; call += 1) assertOk(t, await alice.reveal(token.id), `reveal ${call}`);
    const limited = await alice.reveal(token.id);
    assertRejected(t, limited, 429, /reveal/, 'the 4th reveal');
    const retryAfter = limited.headers['retry-after'];
    t.match(String(retryAfter), /^[0-9]+$/, 'Retry-After is whole seconds');
    t.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After is within the minute window (${retryAfter})`);
    t.notMatch(limited.body, /[0-9A-Za-z]{48}/, 'no key in the limited answer');
    assertRejected(t, await alice.call({ method: 'POST', url: '/api/token/batch/keys', payload: { ids: [token.id] } }), 429, /reveal/, 'batch keys shares the limit');
    assertOk(t, await bob.reveal(bobs.id), 'another user is not limited');
    assertOk(t, await alice.get(token.id), 'other endpoints are not limited');
  });
}
