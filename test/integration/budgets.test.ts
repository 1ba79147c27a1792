import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import t from 'tap';
import type { Clock } from '../../core/di/injection-tokens.js';
import { UsageLog } from '../../core/usage/usage-log.js';
import { UserService } from '../../core/users/user-service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, nativeBody, postChat, postNative, scenarioGateway, startGx, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { prometheusSample } from '../helpers/prometheus-sample.js';

// The gateway's clock starts an hour before midnight UTC and moves with real time; a test
// moves it across midnight by adding to `shift` instead of waiting.
const startsAt = Date.parse('2026-12-02T23:00:00Z');
const midnight = Date.parse('2026-12-03T00:00:00Z');
let shift = 0;
const started = Date.now();
const clock: Clock = { now: () => startsAt + (Date.now() - started) + shift };

const messagesBody = { model: 'gx-2.5-pro', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }] };
const postMessages = (gateway: TestApp, token: IssuedToken): Promise<LightMyRequestResponse> =>
  gateway.app.inject({ method: 'POST', url: '/v1/messages', payload: messagesBody, headers: { 'anthropic-version': '2023-06-01', 'x-api-key': `sk-${token.key}` } });

const updateToken = (gateway: TestApp, token: IssuedToken, fields: Record<string, unknown>) =>
  gateway.asUser(token.loginToken, { method: 'PUT', url: '/api/token/', payload: { id: token.id, ...fields } });

/** Seconds until the clock's next midnight, as Retry-After rounds them. */
const secondsToMidnight = () => Math.ceil((midnight + (shift > 0 ? 86_400_000 : 0) - clock.now()) / 1000);

t.test('budgets per period on tokens and users', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] }, { clock });
  t.teardown(() => {
    shift = 0;
  });

  t.test('a request that does not fit a hard daily budget is a 429 budget_exceeded in the chat dialect, and nothing is charged', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1 });
    const before = await storedToken(gateway, token);
    const response = await postChat(gateway, token, chatBody('too much'));
    t.equal(response.statusCode, 429);
    const error = response.json().error;
    t.match(error, { type: 'rate_limit_error', code: 'budget_exceeded' });
    t.match(error.message, /^this request needs \d+ quota units but the daily budget of this API key has 1 of 1 left; it resets at 2026-12-03T00:00:00\.000Z\. Wait for the reset, or raise budget_daily$/);
    const retryAfter = Number(response.headers['retry-after']);
    t.ok(Math.abs(retryAfter - secondsToMidnight()) <= 2, `Retry-After (${retryAfter}) says the seconds until midnight`);
    const after = await storedToken(gateway, token);
    t.same({ remain: after.remain_quota, used: after.used_quota }, { remain: before.remain_quota, used: before.used_quota });
    t.match(after.budgets, [{ period: 'daily', limit: 1, mode: 'hard', used: 0, remain: 1, resets_at: midnight / 1000 }]);
  });

  t.test('the same refusal on the Messages route comes in Anthropic\'s shape with Retry-After', async (t) => {
    const token = await issueToken(t, gateway, { budget_weekly: 1 });
    const response = await postMessages(gateway, token);
    t.equal(response.statusCode, 429);
    t.match(response.json(), { type: 'error', error: { type: 'rate_limit_error', message: /weekly budget of this API key has 1 of 1 left; it resets at 2026-12-07T00:00:00\.000Z/ } });
    t.ok(Number(response.headers['retry-after']) > 86_400, 'the week resets on Monday');
  });

  t.test('and on the native gx route in its own shape', async (t) => {
    const token = await issueToken(t, gateway, { budget_monthly: 1 });
    const response = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('too much'));
    t.equal(response.statusCode, 429);
    t.match(response.json(), { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: /monthly budget of this API key has 1 of 1 left; it resets at 2027-01-01T00:00:00\.000Z/ } });
    t.ok(Number(response.headers['retry-after']) > 0);
  });

  t.test('a served request counts what it was charged in each period, shown on the token with what is left and the reset', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1_000_000, budget_monthly: 2_000_000 });
    t.equal((await postChat(gateway, token, chatBody('count me'))).statusCode, 200);
    const stored = await storedToken(gateway, token);
    t.ok(stored.used_quota > 0);
    t.match(stored, { budget_daily: 1_000_000, budget_weekly: null, budget_monthly: 2_000_000, budget_mode: 'hard' });
    t.same(stored.budgets, [
      { period: 'daily', limit: 1_000_000, mode: 'hard', used: stored.used_quota, remain: 1_000_000 - stored.used_quota, resets_at: midnight / 1000 },
      { period: 'monthly', limit: 2_000_000, mode: 'hard', used: stored.used_quota, remain: 2_000_000 - stored.used_quota, resets_at: Date.parse('2027-01-01T00:00:00Z') / 1000 },
    ]);
  });

  t.test('a spent daily budget refuses until midnight, and the next day starts from 0', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1_000_000 });
    t.equal((await postChat(gateway, token, chatBody('first'))).statusCode, 200);
    const spent = (await storedToken(gateway, token)).used_quota;
    // The limit lowered to what was spent: nothing is left today, and the refusal says what a request needs.
    t.equal((await updateToken(gateway, token, { budget_daily: spent })).statusCode, 200);
    const refused = await postChat(gateway, token, chatBody('second'));
    t.equal(refused.statusCode, 429);
    const needs = Number(/needs (\d+) quota units/.exec(refused.json().error.message)?.[1]);
    // One unit short of that today; the whole limit is there again tomorrow.
    await updateToken(gateway, token, { budget_daily: spent + needs - 1 });
    const short = await postChat(gateway, token, chatBody('second'));
    t.equal(short.statusCode, 429);
    t.match(short.json().error.message, new RegExp(`has ${needs - 1} of ${spent + needs - 1} left`));
    shift = midnight - startsAt;
    t.teardown(() => {
      shift = 0;
    });
    const next = await postChat(gateway, token, chatBody('after midnight'));
    t.equal(next.statusCode, 200, 'served after the reset');
    const stored = await storedToken(gateway, token);
    t.match(stored.budgets, [{ period: 'daily', used: stored.used_quota - spent, resets_at: midnight / 1000 + 86_400 }]);
  });

  t.test('null removes a budget, and bad budget fields are 400s that say what to send', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1 });
    t.equal((await updateToken(gateway, token, { budget_daily: null })).statusCode, 200);
    t.match(await storedToken(gateway, token), { budget_daily: null, budgets: [] });
    t.equal((await postChat(gateway, token, chatBody('no budget'))).statusCode, 200);
    const negative = await updateToken(gateway, token, { budget_daily: -5 });
    t.equal(negative.statusCode, 400);
    t.match(negative.json().message, /budget_daily.*quota units from 0/);
    const mode = await updateToken(gateway, token, { budget_mode: 'sometimes' });
    t.equal(mode.statusCode, 400);
    t.match(mode.json().message, /budget_mode.*hard.*soft/);
  });

  t.test('a soft budget serves the request, counts the crossing in the metrics and marks the usage record', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1, budget_mode: 'soft' });
    const response = await postChat(gateway, token, chatBody('over, but served'));
    t.equal(response.statusCode, 200);
    const metrics = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
    t.equal(prometheusSample(metrics, 'gateway_budget_overruns_total', { scope: 'token', period: 'daily' }), 1, 'one request served past the daily budget');
    await gateway.app.gateway.resolve(UsageLog).flush();
    const records = (await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self' })).json().data.items;
    t.match(records, [{ budget_overrun: 'token:daily', status: 200 }]);
    t.match((await storedToken(gateway, token)).budgets, [{ period: 'daily', limit: 1, mode: 'soft', remain: 0 }]);
  });

  t.test("a user's budget counts every one of its tokens, is set through the user API and shown on GET /api/user/self", async (t) => {
    const users = gateway.app.gateway.resolve(UserService);
    const admin = await users.create('budget-admin', 'admin');
    const asAdmin = (options: InjectOptions) => gateway.asUser(admin.loginToken, options);
    const first = await issueToken(t, gateway);
    const self = (await gateway.asUser(first.loginToken, { method: 'GET', url: '/api/user/self' })).json().data;
    t.match(self, { budget_daily: null, budgets: [] });
    const set = await asAdmin({ method: 'PUT', url: '/api/user/', payload: { id: self.id, budget_daily: 1_000_000 } });
    t.equal(set.statusCode, 200);
    t.match(set.json().data, { id: self.id, status: 1, budget_daily: 1_000_000, budget_mode: 'hard' });
    t.equal((await postChat(gateway, first, chatBody('counted for the user'))).statusCode, 200);
    const spent = (await storedToken(gateway, first)).used_quota;
    const shown = (await gateway.asUser(first.loginToken, { method: 'GET', url: '/api/user/self' })).json().data;
    t.same(shown.budgets, [{ period: 'daily', limit: 1_000_000, mode: 'hard', used: spent, remain: 1_000_000 - spent, resets_at: midnight / 1000 }]);
    await asAdmin({ method: 'PUT', url: '/api/user/', payload: { id: self.id, budget_daily: spent } });
    const refused = await postChat(gateway, first, chatBody('the user has nothing left'));
    t.equal(refused.statusCode, 429);
    t.match(refused.json().error.message, /daily budget of this API key's user has 0 of \d+ left/);
  });

  t.test('many concurrent requests against a hard budget: the refused ones are 429s and the window counts exactly what was charged', async (t) => {
    const token = await issueToken(t, gateway, { budget_daily: 1_000_000 });
    t.equal((await postChat(gateway, token, chatBody('measure'))).statusCode, 200);
    const spent = (await storedToken(gateway, token)).used_quota;
    await updateToken(gateway, token, { budget_daily: spent });
    const needs = Number(/needs (\d+) quota units/.exec((await postChat(gateway, token, chatBody('measure'))).json().error.message)?.[1]);
    // Room for three and a half estimates: three requests at a time, more once settlements give back what estimates overshot.
    const limit = spent + needs * 3 + Math.floor(needs / 2);
    await updateToken(gateway, token, { budget_daily: limit });
    const responses = await Promise.all(Array.from({ length: 20 }, () => postChat(gateway, token, chatBody('measure'))));
    const statuses = responses.map((response) => response.statusCode);
    t.ok(statuses.every((status) => status === 200 || status === 429), `only 200s and 429s (${statuses.join(' ')})`);
    t.ok(statuses.filter((status) => status === 200).length >= 3, 'at least the three that fit were served');
    t.ok(statuses.includes(429), 'some were refused');
    t.ok(responses.filter((response) => response.statusCode === 429).every((response) => response.json().error.code === 'budget_exceeded'));
    const stored = await storedToken(gateway, token);
    t.match(stored.budgets, [{ period: 'daily', used: stored.used_quota }], 'nothing is left held once every request ended');
    t.ok(stored.used_quota <= limit, `never over the limit: ${stored.used_quota} of ${limit}`);
  });
});

t.test("a config user's budgets are written at start and shown on GET /api/user/self", async (t) => {
  const loginToken = 'mgu_configured-budget-user-login-token-0123456789';
  const gateway = await scenarioGateway(t, { users: [{ id: 7, username: 'configured', login_token: loginToken, budget_monthly: 3_000_000, budget_mode: 'soft' }] }, { clock });
  const self = (await gateway.asUser(loginToken, { method: 'GET', url: '/api/user/self' })).json().data;
  t.match(self, { id: 7, budget_daily: null, budget_monthly: 3_000_000, budget_mode: 'soft' });
  t.same(self.budgets, [{ period: 'monthly', limit: 3_000_000, mode: 'soft', used: 0, remain: 3_000_000, resets_at: Date.parse('2027-01-01T00:00:00Z') / 1000 }]);
});
