import t from 'tap';
import { prometheusSample } from '../helpers/prometheus-sample.js';
import { GatewayMetrics } from '../../core/observability/gateway-metrics.js';
import { WorkerMetricsSnapshots } from '../../core/observability/worker-metrics-snapshots.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, startGx, waitForToken, storedToken } from '../helpers/gateway-scenario.js';

const sample = prometheusSample;

t.test('GET /metrics shows requests by route and status, open streams, circuits and the process', async (t) => {
  const healthy = await startGx(t);
  const broken = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-broken', broken.url, { priority: 10 }), gxChannel('gx-healthy', healthy.url)],
    routing: { circuit_breaker: { failure_threshold: 1, cooldown_ms: 60_000 } },
  });
  const token = await issueToken(t, gateway);
  const scrape = async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/metrics' });
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /^text\/plain/);
    return response.payload;
  };

  broken.next({ error: 503 });
  const before = await storedToken(gateway, token);
  t.equal((await postChat(gateway, token, chatBody('fail over please'))).statusCode, 200);
  t.equal((await postChat(gateway, token, chatBody('stream please', { stream: true }))).statusCode, 200);
  t.equal((await postChat(gateway, token, { model: 'gx-2.5-pro' })).statusCode, 400);
  await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);

  const text = await scrape();
  t.equal(sample(text, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '200' }), 2);
  t.equal(sample(text, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '400' }), 1);
  t.equal(sample(text, 'gateway_http_request_duration_seconds_count', { route: '/v1/chat/completions' }), 3);
  t.equal(sample(text, 'gateway_open_streams'), 0, 'the stream has ended');
  t.equal(sample(text, 'gateway_circuit_state', { channel: 'gx-broken' }), 2, 'the failing channel is open');
  t.equal(sample(text, 'gateway_circuit_state', { channel: 'gx-healthy' }), 0);
  t.ok((sample(text, 'gateway_process_resident_memory_bytes') ?? 0) > 0, 'process metrics are there');

  t.equal(sample(text, 'gateway_model_requests_total', { operation: 'chat', model: 'gx-2.5-pro', channel: 'gx-healthy', outcome: 'success', status: '200' }), 2);
  t.equal(sample(text, 'gateway_retries_total', { operation: 'chat' }), 1, 'the failover is one retry');
  t.equal(sample(text, 'gateway_upstream_duration_seconds_count', { operation: 'chat', channel: 'gx-broken' }), 1);
  t.equal(sample(text, 'gateway_upstream_duration_seconds_count', { operation: 'chat', channel: 'gx-healthy' }), 2);
  t.equal(sample(text, 'gateway_overhead_seconds_count', { operation: 'chat' }), 1, 'the overhead of the JSON answer');
  t.ok((sample(text, 'gateway_tokens_total', { model: 'gx-2.5-pro', direction: 'output' }) ?? 0) > 0, 'tokens billed');
  const stored = await storedToken(gateway, token);
  t.equal(sample(text, 'gateway_quota_units_total', { model: 'gx-2.5-pro' }), stored.used_quota - before.used_quota, 'quota spent equals what the token was charged');
});

t.test('a request refused before any channel is counted with its status', async (t) => {
  const gateway = await scenarioGateway(t, {});
  const token = await issueToken(t, gateway);
  await postChat(gateway, token, { ...chatBody('x'), model: 'nobody-serves-this' });
  const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  t.equal(sample(text, 'gateway_model_requests_total', { model: 'unknown', channel: 'none', outcome: 'model_not_found', status: '404' }), 1, 'a model no channel serves is counted as unknown');
});

t.test('after traffic with an API key, a login token and a channel key in play, /metrics shows none of them', async (t) => {
  const upstream = await startGx(t);
  const channelKey = 'channel-canary-metrics-4e2a9d7c';
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-main', upstream.url), gxChannel('gx-refused-key', upstream.url, { api_key: channelKey, models: ['gx-3*'] })],
  });
  const token = await issueToken(t, gateway);
  const key = `sk-${token.key}`;
  t.equal((await postChat(gateway, token, chatBody('hello'))).statusCode, 200);
  t.equal((await postChat(gateway, token, chatBody('hello', { stream: true }))).statusCode, 200);
  t.ok((await postChat(gateway, token, { ...chatBody('the channel key is refused'), model: 'gx-3-pro' })).statusCode >= 400);
  // Credentials where a client should not put them: as the model, in the path, in the query.
  await postChat(gateway, token, { ...chatBody('x'), model: key });
  await gateway.app.inject({ method: 'POST', url: `/v1beta/models/${key}:generateContent?key=${key}`, payload: { contents: [] } });
  await gateway.app.inject({ method: 'GET', url: `/v1/models/${key}`, headers: token.bearer });
  await gateway.app.inject({ method: 'GET', url: `/${key}/${token.loginToken}` });
  await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/' });
  await gateway.asUser(token.loginToken, { method: 'GET', url: `/api/token/search?token=${token.key}` });

  const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  t.ok((sample(text, 'gateway_model_requests_total', { operation: 'chat', channel: 'gx-refused-key' }) ?? 0) > 0, 'the traffic is counted, the refused channel too');
  for (const [name, secret] of [
    ['the API key', token.key],
    ['the login token', token.loginToken],
    ['the channel key', channelKey],
  ] as const) {
    t.notOk(text.includes(secret), `${name} is not in the metrics`);
  }
});

t.test('with several workers, the primary sums counters and histograms, keeps the worst circuit state, and keeps what exited workers counted', async (t) => {
  const states: Record<string, Array<[string, 'closed' | 'open' | 'half-open']>> = { one: [['gx-a', 'open']], two: [['gx-a', 'closed']], three: [['gx-a', 'half-open']] };
  const worker = (name: string) => new GatewayMetrics(() => states[name] ?? []);
  const one = worker('one');
  const two = worker('two');
  one.httpRequest('GET', '/healthz', 200, 0.01);
  one.httpRequest('GET', '/healthz', 200, 0.02);
  two.httpRequest('GET', '/healthz', 200, 3);
  one.streamOpened();
  two.streamOpened();
  const snapshots = new WorkerMetricsSnapshots();
  snapshots.record(1, await one.registry.getMetricsAsJSON());
  snapshots.record(2, await two.registry.getMetricsAsJSON());

  const both = await snapshots.text();
  t.equal(sample(both, 'gateway_http_requests_total', { route: '/healthz', status: '200' }), 3, 'counters are summed');
  t.equal(sample(both, 'gateway_http_request_duration_seconds_count', { route: '/healthz' }), 3, 'histogram counts are summed');
  t.equal(sample(both, 'gateway_http_request_duration_seconds_bucket', { route: '/healthz', le: '0.025' }), 2, 'and so are their buckets');
  t.equal(sample(both, 'gateway_http_request_duration_seconds_bucket', { route: '/healthz', le: '+Inf' }), 3);
  t.equal(sample(both, 'gateway_open_streams'), 2, 'open streams are summed');
  t.equal(sample(both, 'gateway_circuit_state', { channel: 'gx-a' }), 2, 'the circuit state is the worst any worker holds');
  t.equal(both.split('\n').filter((line) => line.startsWith('gateway_circuit_state{')).length, 1, 'no per-worker series');
  t.ok((sample(both, 'gateway_process_resident_memory_bytes') ?? 0) > 0, 'process memory is summed');
  t.equal(sample(both, 'gateway_process_start_time_seconds'), undefined, "prom-client omits the start time, which is each worker's own");
  t.equal(both.split('\n').filter((line) => line.startsWith('gateway_nodejs_version_info{')).length, 1, 'the version is given once');

  snapshots.retire(1);
  const three = worker('three');
  three.httpRequest('GET', '/healthz', 200, 0.01);
  snapshots.record(3, await three.registry.getMetricsAsJSON());
  const after = await snapshots.text();
  t.equal(sample(after, 'gateway_http_requests_total', { route: '/healthz', status: '200' }), 4, 'an exited worker still counts: the total does not go backwards');
  t.equal(sample(after, 'gateway_http_request_duration_seconds_count', { route: '/healthz' }), 4);
  t.equal(sample(after, 'gateway_open_streams'), 1, "an exited worker's gauges go with it");
  t.equal(sample(after, 'gateway_circuit_state', { channel: 'gx-a' }), 1, 'its circuits too');
});
