import t from 'tap';
import { prometheusSample } from '../helpers/prometheus-sample.js';
import { chatBody, gxChannel, gxUpstreamKey, issueToken, postChat, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// The channel admin API against real fake gx upstreams: one healthy channel, one whose
// configured key the upstream refuses.

const adminLogin = 'mgu_admin_login_token_for_the_channel_api_01';
const wrongKey = 'gx-wrong-key-canary-5f1d0c93';

async function channelScene(t: Parameters<typeof scenarioGateway>[0]) {
  const upstream = await startGx(t);
  const gateway = await scenarioGateway(t, {
    users: [{ id: 1, username: 'root', login_token: adminLogin, role: 'admin' }],
    providers: [
      gxChannel('gx-main', upstream.url, { models: ['gx-2.5-pro', 'gx-3*'], model_map: { 'gx-latest': 'gx-2.5-pro' }, priority: 2, weight: 3 }),
      gxChannel('gx-wrong-key', upstream.url, { api_key: wrongKey, models: ['gx-3-test'], groups: ['vip'] }),
    ],
    routing: { circuit_breaker: { failure_threshold: 1, cooldown_ms: 60_000 } },
  });
  return { upstream, gateway };
}

const asAdmin = (gateway: TestApp, method: 'GET' | 'POST', url: string, payload?: unknown) => gateway.asUser(adminLogin, { method, url, payload: payload as never });
const channelList = async (gateway: TestApp) => (await asAdmin(gateway, 'GET', '/api/channel/')).json().data;
const channelNamed = async (gateway: TestApp, name: string) => (await channelList(gateway)).items.find((item: { name: string }) => item.name === name);

t.test("the channel list shows each channel's config, circuit state and recent requests, errors and p50 latency, from this process", async (t) => {
  const { upstream, gateway } = await channelScene(t);
  const listed = await channelList(gateway);
  t.same(listed.items[0], {
    name: 'gx-main',
    plugin: 'gx',
    models: ['gx-2.5-pro', 'gx-3*', 'gx-latest'],
    groups: ['default'],
    priority: 2,
    weight: 3,
    circuit: 'closed',
    recent: { requests: 0, errors: 0, refused: 0, p50_latency_ms: null, last_error: null },
    source: 'file',
    enabled: true,
    config: {
      name: 'gx-main',
      plugin: 'gx',
      base_url: upstream.url,
      api_key: '**********',
      models: ['gx-2.5-pro', 'gx-3*'],
      model_map: { 'gx-latest': 'gx-2.5-pro' },
      groups: ['default'],
      priority: 2,
      weight: 3,
      timeouts: { connect_ms: 10_000, first_byte_ms: 120_000, idle_ms: 60_000, total_ms: 600_000 },
      options: {},
    },
  });
  t.match(listed.items[1], { name: 'gx-wrong-key', groups: ['vip'], priority: 0, weight: 1 });
  t.equal(listed.total, 2);
  t.equal(listed.recent_window_seconds, 900);
  t.match(listed.scope, { kind: 'process', process_id: process.pid, note: /process that answered \(pid \d+\), the only one serving this gateway/ });

  const token = await issueToken(t, gateway);
  t.equal((await postChat(gateway, token, chatBody('one'))).statusCode, 200);
  t.equal((await postChat(gateway, token, chatBody('two'))).statusCode, 200);
  t.equal((await postChat(gateway, token, { model: 'gx-2.5-pro', messages: [] })).statusCode, 400, 'a request refused before routing reaches no channel');
  upstream.next({ error: 500, message: 'the upstream fell over' });
  t.equal((await postChat(gateway, token, chatBody('three'))).statusCode, 502);

  const main = await channelNamed(gateway, 'gx-main');
  t.equal(main.circuit, 'open', 'one failure opens it at failure_threshold 1');
  t.match(main.recent, { requests: 3, errors: 1, refused: 0, last_error: { code: 'upstream_error' } });
  t.type(main.recent.p50_latency_ms, 'number', 'the median of the two answered attempts');
  t.ok(Math.abs(main.recent.last_error.at - Date.now() / 1000) < 60, 'the error has its time');
  t.same((await channelNamed(gateway, 'gx-wrong-key')).recent.requests, 0, 'the other channel saw nothing');
});

t.test('a channel test sends one tiny chat through the named channel and answers its status and latency, counted in metrics and billed to nobody', async (t) => {
  const { upstream, gateway } = await channelScene(t);
  const tested = await asAdmin(gateway, 'POST', '/api/channel/test', { name: 'gx-main' });
  t.equal(tested.statusCode, 200);
  const outcome = tested.json().data;
  t.match(outcome, { name: 'gx-main', model: 'gx-2.5-pro', operation: 'chat', ok: true, status: 200, error: null }, 'the first listed model, by chat');
  t.type(outcome.latency_ms, 'number');
  const sent = upstream.requests.at(-1);
  t.equal(sent?.path, '/v1beta/models/gx-2.5-pro:generateContent', 'one generate call reached the upstream');
  t.match(sent?.json, { generationConfig: { maxOutputTokens: 16 } }, 'a few tokens at most');

  const mapped = (await asAdmin(gateway, 'POST', '/api/channel/test', { name: 'gx-main', model: 'gx-latest', operation: 'native.embed' })).json().data;
  t.match(mapped, { model: 'gx-latest', operation: 'native.embed', ok: true, status: 200 });
  t.equal(upstream.requests.at(-1)?.path, '/v1beta/models/gx-2.5-pro:embedContent', 'a chosen operation, on the mapped model');

  const metrics = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  t.equal(prometheusSample(metrics, 'gateway_model_requests_total', { operation: 'chat', channel: 'gx-main', outcome: 'success', status: '200' }), 1, 'the test is counted');
  t.equal(prometheusSample(metrics, 'gateway_quota_units_total', { model: 'gx-2.5-pro' }), undefined, 'and nothing was charged');
  t.match((await channelNamed(gateway, 'gx-main')).recent, { requests: 2, errors: 0 }, 'and in the recent figures');
});

t.test("a failing channel test shows the upstream's error and the status a client would get, never a key", async (t) => {
  const { upstream, gateway } = await channelScene(t);
  upstream.next({ error: 500, message: 'the upstream fell over' });
  const failed = await asAdmin(gateway, 'POST', '/api/channel/test', { name: 'gx-main' });
  t.equal(failed.statusCode, 200, 'the test itself ran');
  t.match(failed.json().data, { ok: false, status: 502, error: { code: 'upstream_error', message: /the upstream fell over/ } });

  const refused = await asAdmin(gateway, 'POST', '/api/channel/test', { name: 'gx-wrong-key' });
  const outcome = refused.json().data;
  t.match(outcome, { name: 'gx-wrong-key', model: 'gx-3-test', ok: false, status: 502, error: { code: 'upstream_auth_failed' } });
  t.match(outcome.error.message, /^the upstream refused this channel's credentials \(HTTP \d+\); the upstream said: .*API key not valid/, "with the upstream's own words");
  // An upstream that quotes the key it refused: its words are shown, the key in them is not.
  upstream.next({ status: 401, body: { error: { code: 401, message: `API key ${gxUpstreamKey} is not valid`, status: 'UNAUTHENTICATED' } } });
  const quoted = await asAdmin(gateway, 'POST', '/api/channel/test', { name: 'gx-main' });
  t.match(quoted.json().data.error, { code: 'upstream_auth_failed', message: /the upstream said: API key .+ is not valid/ });
  for (const secret of [wrongKey, gxUpstreamKey]) {
    t.notOk([refused, failed, quoted].some((answer) => answer.payload.includes(secret)), 'no channel key in any answer');
  }
  t.equal((await channelNamed(gateway, 'gx-main')).circuit, 'closed', "a test opens no circuit clients rely on");
});

t.test('bad input to the channel test is a 400 naming the field', async (t) => {
  const { gateway } = await channelScene(t);
  const cases: Array<[string, unknown, RegExp]> = [
    ['no name', {}, /^name: /],
    ['an unknown channel', { name: 'gx-nowhere' }, /^name: no channel is named "gx-nowhere"; the channels are gx-main, gx-wrong-key/],
    ['a model the channel does not list', { name: 'gx-main', model: 'gp-5.4' }, /^model: channel "gx-main" does not list "gp-5.4"; it lists gx-2.5-pro, gx-3\*, gx-latest/],
    ['an operation a test cannot send', { name: 'gx-main', operation: 'video.submit' }, /^operation: expected one of chat, /],
    ['an operation the channel does not serve', { name: 'gx-main', operation: 'audio.speech' }, /^operation: channel "gx-main" cannot be tested with audio.speech; of .* it serves chat, native.generate, native.embed/],
    ['an unknown field', { name: 'gx-main', key: 'x' }, /key/],
  ];
  for (const [what, payload, message] of cases) {
    const answer = await asAdmin(gateway, 'POST', '/api/channel/test', payload);
    t.equal(answer.statusCode, 400, `${what}: 400`);
    t.match(answer.json(), { success: false, message }, what);
  }
});
