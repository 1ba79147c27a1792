import t from 'tap';
import type { TestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, sseData, startGx } from '../helpers/gateway-scenario.js';

// At the default `info` level every request writes one line: a model request its summary
// (route, status, latency, attempts, usage), any other request its route, status and latency.

/** Every log line of one request, by its id. */
function linesOf(gateway: TestApp, requestId: string): Array<Record<string, any>> {
  return gateway.logLines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((record) => record.reqId === requestId);
}

/** The lines of `requestId` once the first has been written (a stream's is written as it ends). */
async function waitForLinesOf(gateway: TestApp, requestId: string): Promise<Array<Record<string, any>>> {
  for (let tries = 0; linesOf(gateway, requestId).length === 0 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  // Anything else the request would write is written by then too.
  await new Promise((resolve) => setImmediate(resolve));
  return linesOf(gateway, requestId);
}

t.test('at info level each request writes exactly one line', async (t) => {
  const upstream = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', upstream.url)] });
  const token = await issueToken(t, gateway);

  t.test('a model request: its summary, with route, status, latency, attempts and usage', async (t) => {
    const response = await postChat(gateway, token, chatBody('hello'), { headers: { 'x-request-id': 'one-line-json' } });
    t.equal(response.statusCode, 200);
    const lines = await waitForLinesOf(gateway, 'one-line-json');
    t.equal(lines.length, 1, 'one line');
    t.match(lines[0], {
      level: 30,
      msg: 'model request answered',
      reqId: 'one-line-json',
      route: 'POST /v1/chat/completions',
      status: 200,
      milliseconds: Number,
      model: 'gx-2.5-pro',
      stream: false,
      attempts: [{ channel: 'gx-main', outcome: 'success' }],
      input_tokens: Number,
      output_tokens: Number,
      usage_source: 'upstream',
    });
    t.ok(lines[0]?.input_tokens > 0 && lines[0]?.output_tokens > 0, 'with the tokens billed');
  });

  t.test('a streamed model request: its summary, written when the stream has ended', async (t) => {
    const response = await postChat(gateway, token, chatBody('hello', { stream: true }), { headers: { 'x-request-id': 'one-line-stream' } });
    t.equal(sseData(response.payload).at(-1), '[DONE]');
    const lines = await waitForLinesOf(gateway, 'one-line-stream');
    t.equal(lines.length, 1, 'one line');
    t.match(lines[0], {
      level: 30,
      msg: 'model request answered',
      route: 'POST /v1/chat/completions',
      status: 200,
      milliseconds: Number,
      stream: true,
      end: 'completed',
      attempts: [{ channel: 'gx-main', outcome: 'success' }],
      input_tokens: Number,
      output_tokens: Number,
      usage_source: 'upstream',
    });
  });

  t.test('a model request refused before any attempt: its summary, at warn', async (t) => {
    const response = await postChat(gateway, token, { ...chatBody('hello'), model: 'no-such-model' }, { headers: { 'x-request-id': 'one-line-refused' } });
    t.equal(response.statusCode, 404);
    const lines = await waitForLinesOf(gateway, 'one-line-refused');
    t.equal(lines.length, 1, 'one line');
    t.match(lines[0], { level: 40, msg: 'model request failed', route: 'POST /v1/chat/completions', status: 404, milliseconds: Number, model: 'no-such-model', attempts: [] });
  });

  t.test('a management request: its route, status and latency', async (t) => {
    const response = await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/?size=1', headers: { 'x-request-id': 'one-line-management' } });
    t.equal(response.statusCode, 200);
    const lines = await waitForLinesOf(gateway, 'one-line-management');
    t.equal(lines.length, 1, 'one line');
    t.match(lines[0], { level: 30, msg: 'request answered', route: 'GET /api/token/', status: 200, milliseconds: Number });
  });

  t.test('health, the model list and an unknown path: one line each', async (t) => {
    await gateway.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'one-line-health' } });
    await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { ...token.bearer, 'x-request-id': 'one-line-models' } });
    await gateway.app.inject({ method: 'GET', url: '/no/such/path', headers: { 'x-request-id': 'one-line-unknown' } });
    t.match(await waitForLinesOf(gateway, 'one-line-health'), [{ msg: 'request answered', route: 'GET /healthz', status: 200 }]);
    t.match(await waitForLinesOf(gateway, 'one-line-models'), [{ msg: 'request answered', route: 'GET /v1/models', status: 200 }]);
    const unknown = await waitForLinesOf(gateway, 'one-line-unknown');
    t.equal(unknown.length, 1);
    t.match(unknown[0], { msg: 'request answered', route: 'GET unmatched', path: '/no/such/path', status: 404 });
  });
});
