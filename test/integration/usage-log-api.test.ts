import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { UsageLog } from '../../core/usage/usage-log.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioPricing, startGx, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { storageDrivers, type StorageDriver } from '../helpers/test-config.js';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';

const scriptedVideoPlugin = fileURLToPath(new URL('../fixtures/plugins/scripted-video-provider.ts', import.meta.url));

/** A clock the test moves (retention, video tasks). */
class ManualClock {
  #offset = 0;
  now = () => Date.now() + this.#offset;
  advance(milliseconds: number): void {
    this.#offset += milliseconds;
  }
}

interface LogGateway {
  gateway: TestApp;
  fake: FakeGxUpstream;
  clock: ManualClock;
  /** An admin's login token. */
  admin: string;
}

/** A gateway with a gx channel on a fake upstream (and a scripted video channel), on `driver`, with an admin. */
async function logGateway(t: Test, driver: StorageDriver = 'memory', overrides: Record<string, unknown> = {}): Promise<LogGateway> {
  const fake = await startGx(t);
  const clock = new ManualClock();
  const gateway = await buildTestApp(
    t,
    driver,
    {
      pricing: { ...scenarioPricing, 'vx-test': { per_second: 0.1 } },
      providers: [gxChannel('gx-main', fake.url, { model_map: { 'gx-2.5-pro': 'gx-2.5-pro-002' } }), { name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] }],
      tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
      ...overrides,
    },
    { clock },
  );
  const admin = (await gateway.app.gateway.resolve(UserService).create(`admin-${driver}`, 'admin')).loginToken;
  return { gateway, fake, clock, admin };
}

/** GET `url` as the login token; the parsed body. */
async function getJson(gateway: TestApp, loginToken: string, url: string): Promise<{ status: number; body: any }> {
  const response = await gateway.asUser(loginToken, { method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

/** The caller's records once every record handed to the log is written. */
async function ownRecords(gateway: TestApp, loginToken: string, query = ''): Promise<any[]> {
  await gateway.app.gateway.resolve(UsageLog).flush();
  const { status, body } = await getJson(gateway, loginToken, `/api/log/self?size=100${query}`);
  if (status !== 200) throw new Error(`GET /api/log/self answered ${status}: ${JSON.stringify(body)}`);
  return body.data.items;
}

/** Waits until the caller has `count` records (a stream is recorded when it ends, after its answer). */
async function waitForRecords(gateway: TestApp, loginToken: string, count: number): Promise<any[]> {
  const until = Date.now() + 3000;
  for (;;) {
    const items = await ownRecords(gateway, loginToken);
    if (items.length >= count || Date.now() > until) return items;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads a stream until its first content, then leaves. */
async function leaveMidStream(gateway: TestApp, token: IssuedToken, text: string): Promise<void> {
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { ...token.bearer, 'content-type': 'application/json' } }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        received += chunk;
        if (received.includes('"content":"')) {
          request.destroy();
          resolve();
        }
      });
      response.on('error', () => {});
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify(chatBody(text, { stream: true })));
  });
}

t.test('a chat is on record with its model, tokens, charge, timing and request id; admins also see its channel and attempts', async (t) => {
  const { gateway, admin } = await logGateway(t);
  const token = await issueToken(t, gateway);
  const before = await storedToken(gateway, token);
  const answered = await postChat(gateway, token, chatBody('hello there'), { headers: { 'x-request-id': 'chat-one' } });
  t.equal(answered.statusCode, 200);
  const after = await storedToken(gateway, token);
  const answer = answered.json();

  const [record, ...others] = await ownRecords(gateway, token.loginToken);
  t.same(others, [], 'one request, one record');
  t.match(record, {
    id: Number,
    created_at: Number,
    type: 2,
    token_id: token.id,
    token_name: 'scenario',
    model_name: 'gx-2.5-pro',
    upstream_model: 'gx-2.5-pro-002',
    operation: 'chat',
    client_format: 'openai',
    group: 'default',
    is_stream: false,
    prompt_tokens: answer.usage.prompt_tokens,
    completion_tokens: answer.usage.completion_tokens,
    quota: after.used_quota - before.used_quota,
    usage_source: 'upstream',
    status: 200,
    error_code: '',
    end_reason: 'completed',
    request_id: 'chat-one',
    task_id: '',
  });
  t.ok(record.quota > 0, 'the charge is on record');
  t.ok(record.use_time_ms >= 0 && record.first_byte_ms <= record.use_time_ms);
  t.ok(Math.abs(record.created_at - Date.now() / 1000) < 60, 'created_at is Unix seconds, now');
  t.notOk('channel' in record || 'attempts' in record, 'a user does not see the channel or the attempts');

  const asAdmin = (await getJson(gateway, admin, '/api/log/?size=5')).body.data;
  t.match(asAdmin, { total: 1, page: 1, page_size: 5 });
  t.match(asAdmin.items[0], { id: record.id, channel: 'gx-main', attempts: [{ channel: 'gx-main', group: 'default', outcome: 'success', milliseconds: Number }] });
  t.match((await getJson(gateway, admin, '/api/log/self')).body.data, { items: [], total: 0 }, "an admin's own list holds the admin's own records only");
});

t.test('a stream, a failed request, a refused one and a stream the client left are each on record as they ended', async (t) => {
  const { gateway, fake } = await logGateway(t);
  const token = await issueToken(t, gateway);

  const streamed = await postChat(gateway, token, chatBody('stream this', { stream: true }));
  t.equal(streamed.statusCode, 200);
  t.match((await waitForRecords(gateway, token.loginToken, 1))[0], { type: 2, is_stream: true, end_reason: 'completed', status: 200, usage_source: 'upstream', error_code: '' });

  const unknown = await postChat(gateway, token, chatBody('x', { model: 'gx-none' }));
  t.equal(unknown.statusCode, 404);
  const refused = (await ownRecords(gateway, token.loginToken))[0];
  t.match(refused, { type: 5, model_name: 'gx-none', status: 404, error_code: 'model_not_found', end_reason: 'model_not_found', quota: 0, upstream_model: '', prompt_tokens: 0 });
  t.same(refused.attempts, undefined, 'no attempts shown to a user');

  fake.next({ stallAfterChunks: 2 });
  await leaveMidStream(gateway, token, Array.from({ length: 60 }, (_, index) => `word${index}`).join(' '));
  const gone = (await waitForRecords(gateway, token.loginToken, 3))[0];
  t.match(gone, { type: 2, is_stream: true, end_reason: 'client_gone', error_code: '', status: 200 });
  const stored = await waitForToken(gateway, token, (current) => current.used_quota >= gone.quota);
  t.ok(stored.used_quota > 0);
});

t.test('a request every channel fails is an error record with its status, code and each attempt', async (t) => {
  const fake = await startGx(t);
  const { gateway, admin } = await logGateway(t, 'memory', {
    providers: [gxChannel('gx-first', fake.url, { priority: 1 }), gxChannel('gx-second', fake.url)],
  });
  const token = await issueToken(t, gateway);
  fake.next({ error: 503 });
  fake.next({ error: 500 });
  const failed = await postChat(gateway, token, chatBody('fail please'));
  t.equal(failed.statusCode, 502);
  const [record] = await ownRecords(gateway, token.loginToken);
  t.match(record, { type: 5, status: 502, error_code: failed.json().error.code, end_reason: failed.json().error.code, quota: 0 });
  const seen = (await getJson(gateway, admin, `/api/log/?request_id=${record.request_id}`)).body.data.items[0];
  t.match(seen.attempts, [
    { channel: 'gx-first', outcome: 'failed', status: Number },
    { channel: 'gx-second', outcome: 'failed', status: Number },
  ]);
  t.equal(seen.channel, 'gx-second', 'the channel is the last one tried');
});

t.test('a video task is on record once it settles: charged on success, a refund on failure', async (t) => {
  const { gateway } = await logGateway(t);
  const token = await issueToken(t, gateway);
  const submit = (prompt: string) =>
    gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'vx-test', prompt } });
  const poll = (id: string) => gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer });

  const succeeded = (await submit('a fox, seconds: 8, script: queued succeeded')).json().task_id as string;
  const failed = (await submit('a hare, script: failed')).json().task_id as string;
  t.same(await ownRecords(gateway, token.loginToken), [], 'a submitted task is not on record yet');

  await poll(succeeded);
  await poll(succeeded);
  await poll(failed);
  const records = await ownRecords(gateway, token.loginToken);
  t.equal(records.length, 2);
  const charged = records.find((record) => record.task_id === succeeded);
  const refunded = records.find((record) => record.task_id === failed);
  t.match(charged, { type: 2, operation: 'video.submit', model_name: 'vx-test', quota: 8 * 50_000, end_reason: 'completed', error_code: '', status: 200 });
  t.match(refunded, { type: 6, operation: 'video.submit', quota: 0, end_reason: 'OutputVideoSensitiveContentDetected', error_code: 'OutputVideoSensitiveContentDetected' });
  await poll(succeeded);
  t.equal((await ownRecords(gateway, token.loginToken)).length, 2, 'polling a settled task records nothing more');
  t.same((await ownRecords(gateway, token.loginToken, '&type=6')).map((record) => record.task_id), [failed]);
});

t.test('filters, pages, totals and days read the caller\'s records; another user\'s are never visible', async (t) => {
  const { gateway, admin } = await logGateway(t);
  const first = await issueToken(t, gateway, { name: 'first-key' });
  const second = await issueToken(t, gateway, { name: 'second-key' });
  for (const text of ['one', 'two', 'three']) await postChat(gateway, first, chatBody(text));
  await postChat(gateway, first, chatBody('x', { model: 'gx-none' }));
  await postChat(gateway, second, chatBody('theirs'), { headers: { 'x-request-id': 'second-user-request' } });
  const mine = await ownRecords(gateway, first.loginToken);
  t.equal(mine.length, 4);
  t.ok(mine.every((record) => record.token_id === first.id), "only the caller's own records");
  t.same(mine.map((record) => record.id), [...mine.map((record) => record.id)].sort((a, b) => b - a), 'newest first');

  const page = (await getJson(gateway, first.loginToken, '/api/log/self?p=2&size=3')).body;
  t.match(page, { success: true, message: '', data: { total: 4, page: 2, page_size: 3 } });
  t.same(page.data.items.map((record: any) => record.id), [mine[3].id]);
  const defaults = (await getJson(gateway, first.loginToken, '/api/log/self')).body.data;
  t.match(defaults, { page: 1, page_size: 20, total: 4 });

  t.same((await ownRecords(gateway, first.loginToken, '&model_name=gx-none')).length, 1);
  t.same((await ownRecords(gateway, first.loginToken, '&status=200&type=2')).length, 3);
  t.same((await ownRecords(gateway, first.loginToken, '&token_name=first-key&model_name=')).length, 4, 'an empty filter is no filter');
  t.same(await ownRecords(gateway, first.loginToken, '&request_id=second-user-request'), [], "another user's request id finds nothing");
  const now = Math.floor(Date.now() / 1000);
  t.same((await ownRecords(gateway, first.loginToken, `&start_timestamp=${now - 60}&end_timestamp=${now + 60}`)).length, 4);
  t.same(await ownRecords(gateway, first.loginToken, `&end_timestamp=${now - 3600}`), []);

  const answered = mine.filter((record) => record.type === 2);
  const stat = (await getJson(gateway, first.loginToken, '/api/log/self/stat')).body;
  t.same(stat, {
    success: true,
    message: '',
    data: {
      quota: answered.reduce((sum, record) => sum + record.quota, 0),
      requests: 4,
      prompt_tokens: mine.reduce((sum, record) => sum + record.prompt_tokens, 0),
      completion_tokens: mine.reduce((sum, record) => sum + record.completion_tokens, 0),
    },
  });
  t.equal(stat.data.quota, (await storedToken(gateway, first)).used_quota, 'the totals add up to what the token was charged');
  t.same((await getJson(gateway, first.loginToken, '/api/log/self/stat?type=5')).body.data, { quota: 0, requests: 1, prompt_tokens: 0, completion_tokens: 0 });

  const today = new Date().toISOString().slice(0, 10);
  const daily = (await getJson(gateway, first.loginToken, `/api/log/self/daily?start_timestamp=${now - 86_400}`)).body.data;
  t.same(daily, [
    { day: today, model_name: 'gx-2.5-pro', requests: 3, quota: stat.data.quota, prompt_tokens: stat.data.prompt_tokens, completion_tokens: stat.data.completion_tokens },
    { day: today, model_name: 'gx-none', requests: 1, quota: 0, prompt_tokens: 0, completion_tokens: 0 },
  ]);

  const everyone = (await getJson(gateway, admin, '/api/log/?size=100')).body.data;
  t.equal(everyone.total, 5, 'an admin reads every user');
  const secondUser = everyone.items.find((record: any) => record.request_id === 'second-user-request').user_id;
  t.same((await getJson(gateway, admin, `/api/log/?user_id=${secondUser}`)).body.data.items.map((record: any) => record.request_id), ['second-user-request']);
  t.match((await getJson(gateway, admin, `/api/log/stat?user_id=${secondUser}`)).body.data, { requests: 1 });
  t.match((await getJson(gateway, admin, '/api/log/stat')).body.data, { requests: 5 });
});

t.test('the admin routes refuse a user, and a user cannot ask for another user', async (t) => {
  const { gateway } = await logGateway(t);
  const token = await issueToken(t, gateway);
  for (const url of ['/api/log/', '/api/log/stat', '/api/log/export?format=csv', '/api/log/?user_id=1']) {
    const { status, body } = await getJson(gateway, token.loginToken, url);
    t.equal(status, 403, url);
    t.match(body, { success: false, message: /for admins only/ }, url);
  }
  const { status, body } = await getJson(gateway, token.loginToken, '/api/log/self?user_id=1');
  t.equal(status, 400);
  t.match(body.message, /unknown field "user_id"/);
  t.equal((await gateway.app.inject({ method: 'GET', url: '/api/log/self' })).statusCode, 401, 'no login token, no log');
});

t.test('a bad filter is a 400 that names the parameter', async (t) => {
  const { gateway, admin } = await logGateway(t);
  const token = await issueToken(t, gateway);
  const cases: Array<[string, RegExp]> = [
    ['/api/log/self?p=0', /^p: /],
    ['/api/log/self?size=101', /^size: at most 100/],
    ['/api/log/self?size=ten', /^size: expected a positive integer/],
    ['/api/log/self?type=3', /^type: expected 2 \(consume\), 5 \(error\) or 6 \(refund\)/],
    ['/api/log/self?status=abc', /^status: expected an HTTP status/],
    ['/api/log/self?start_timestamp=-5', /^start_timestamp: expected Unix seconds/],
    ['/api/log/self?start_timestamp=200&end_timestamp=100', /^end_timestamp: must not be before start_timestamp/],
    ['/api/log/self/stat?model=gx', /unknown field "model" in the query/],
    ['/api/log/self/daily?end_timestamp=soon', /^end_timestamp: /],
    [`/api/log/self?model_name=${'m'.repeat(201)}`, /^model_name: at most 200 characters/],
    ['/api/log/self?type=2&type=5', /^type: /],
    ['/api/log/self/export?format=xml', /^format: expected csv or jsonl/],
  ];
  for (const [url, message] of cases) {
    const { status, body } = await getJson(gateway, token.loginToken, url);
    t.equal(status, 400, url);
    t.match(body, { success: false, message }, url);
  }
  const { status, body } = await getJson(gateway, admin, '/api/log/?user_id=abc');
  t.equal(status, 400);
  t.match(body.message, /^user_id: expected a positive integer/);
});

t.test('an export streams the filtered records as CSV or JSON lines, the admin fields for admins only', async (t) => {
  const { gateway, admin } = await logGateway(t);
  const token = await issueToken(t, gateway);
  await postChat(gateway, token, chatBody('first'));
  await postChat(gateway, token, chatBody('second, with "quotes"'));
  await postChat(gateway, token, chatBody('x', { model: '=HYPERLINK("http://example.invalid")' }));
  const records = await ownRecords(gateway, token.loginToken);

  const csv = await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self/export?format=csv' });
  t.equal(csv.statusCode, 200);
  t.match(csv.headers['content-type'], /^text\/csv/);
  t.match(csv.headers['content-disposition'], /attachment; filename="usage-log\.csv"/);
  const rows = csv.payload.trimEnd().split('\r\n');
  t.equal(rows[0], 'id,created_at,type,user_id,token_id,token_name,model_name,upstream_model,operation,client_format,group,is_stream,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,quota,usage_source,status,error_code,end_reason,budget_overrun,use_time_ms,first_byte_ms,request_id,task_id');
  t.equal(rows.length, 4, 'a header and a row per record');
  t.ok(rows[1]!.startsWith(`${records[0].id},`), 'newest first');
  t.match(rows[1], /,'=HYPERLINK\(""http:\/\/example\.invalid""\)",|,"'=HYPERLINK\(""http:\/\/example\.invalid""\)",/, 'a formula is written as text, quoted');

  const jsonl = await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self/export?format=jsonl&model_name=gx-2.5-pro' });
  t.match(jsonl.headers['content-type'], /^application\/x-ndjson/);
  const lines = jsonl.payload.trimEnd().split('\n').map((line) => JSON.parse(line));
  t.same(lines, records.filter((record) => record.model_name === 'gx-2.5-pro'), 'the same records as the list, filtered');

  const adminLines = (await gateway.asUser(admin, { method: 'GET', url: '/api/log/export?format=jsonl' })).payload.trimEnd().split('\n').map((line) => JSON.parse(line));
  t.equal(adminLines.length, 3);
  t.ok(adminLines.every((line) => typeof line.channel === 'string' && Array.isArray(line.attempts)), 'an admin export has the channel and attempts');
  const adminCsv = (await gateway.asUser(admin, { method: 'GET', url: `/api/log/export?user_id=${records[0].user_id}` })).payload;
  t.match(adminCsv.split('\r\n')[0], /,task_id,channel,attempts$/, 'CSV by default, with the admin columns');
  t.equal(adminCsv.trimEnd().split('\r\n').length, 4);
});

t.test('records older than logs.retention_days are removed in the background, newer ones kept', async (t) => {
  const { gateway, clock } = await logGateway(t, 'memory', { logs: { retention_days: 7 } });
  const token = await issueToken(t, gateway);
  await postChat(gateway, token, chatBody('old'));
  clock.advance(8 * 86_400_000);
  await postChat(gateway, token, chatBody('new'), { headers: { 'x-request-id': 'the-new-one' } });
  t.equal((await ownRecords(gateway, token.loginToken)).length, 2);
  t.equal(await gateway.app.gateway.resolve(UsageLog).removeExpired(), 1, 'the retention round removes the old record');
  t.same((await ownRecords(gateway, token.loginToken)).map((record) => record.request_id), ['the-new-one']);
});

t.test('with logs.enabled: false nothing is recorded, and the API answers an empty log', async (t) => {
  const { gateway } = await logGateway(t, 'memory', { logs: { enabled: false } });
  const token = await issueToken(t, gateway);
  t.equal((await postChat(gateway, token, chatBody('unrecorded'))).statusCode, 200);
  await postChat(gateway, token, chatBody('x', { model: 'gx-none' }));
  t.same(await ownRecords(gateway, token.loginToken), []);
  t.same((await getJson(gateway, token.loginToken, '/api/log/self/stat')).body.data, { quota: 0, requests: 0, prompt_tokens: 0, completion_tokens: 0 });
});

for (const driver of storageDrivers) {
  t.test(`the log API answers from the ${driver} store`, async (t) => {
    const { gateway, admin } = await logGateway(t, driver);
    const token = await issueToken(t, gateway);
    await postChat(gateway, token, chatBody('stored'), { headers: { 'x-request-id': `on-${driver}` } });
    await postChat(gateway, token, chatBody('x', { model: 'gx-none' }));
    const records = await ownRecords(gateway, token.loginToken);
    t.match(records, [{ type: 5, model_name: 'gx-none' }, { type: 2, request_id: `on-${driver}`, quota: (await storedToken(gateway, token)).used_quota }]);
    t.match((await getJson(gateway, token.loginToken, '/api/log/self/stat')).body.data, { requests: 2, quota: records[1].quota });
    t.equal((await getJson(gateway, token.loginToken, '/api/log/self/daily')).body.data.length, 2);
    t.match((await getJson(gateway, admin, `/api/log/?request_id=on-${driver}`)).body.data.items, [{ channel: 'gx-main', attempts: [{ outcome: 'success' }] }]);
    const exported = (await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self/export?format=jsonl' })).payload.trimEnd().split('\n');
    t.same(exported.map((line) => JSON.parse(line).id), records.map((record) => record.id));
  });
}
