import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { InFlightRequests } from '../../core/pipeline/in-flight-requests.js';
import { chatBody, gxChannel, issueToken, nativeBody, scenarioGateway, sseData, startGx, streamedText } from '../helpers/gateway-scenario.js';
import { httpCall } from '../helpers/http-call.js';

/** A stream a client holds open: its response has started and its first event arrived. */
interface OpenStream {
  sent: ClientRequest;
  response: IncomingMessage;
}

/** POSTs `body` and resolves once the response's first bytes have arrived, leaving it open. */
function openStream(url: string, headers: Record<string, string>, body: unknown): Promise<OpenStream> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } });
    sent.on('error', reject);
    sent.on('response', (response) => {
      response.once('data', () => resolve({ sent, response }));
      response.on('error', () => {});
    });
    sent.end(payload);
  });
}

/** Waits for `condition`, giving up after 5 s so that the assertion after it fails rather than the test hanging. */
async function until(condition: () => boolean): Promise<void> {
  const giveUp = Date.now() + 5000;
  while (!condition() && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 10));
}

t.test('with server.max_in_flight: 2, a third model request is refused with 503 and Retry-After in its dialect while two streams are open, and served once one ends', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)], server: { max_in_flight: 2 } });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  const inFlight = gateway.app.gateway.resolve(InFlightRequests);
  const bearer = token.bearer;

  // Two streams that send their first event and then go silent until their client leaves.
  fake.next({ stallAfterChunks: 1 });
  fake.next({ stallAfterChunks: 1 });
  const first = await openStream(`${base}/v1/chat/completions`, bearer, chatBody('hold this open', { stream: true }));
  const second = await openStream(`${base}/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse`, bearer, nativeBody('hold this open too'));
  t.teardown(() => {
    first.sent.destroy();
    second.sent.destroy();
  });
  t.equal(inFlight.admitted, 2, 'the two open streams are the model requests in flight');

  t.test('the OpenAI routes answer in the OpenAI shape', async (t) => {
    const refused = await httpCall(`${base}/v1/chat/completions`, { headers: bearer, body: chatBody('one more', { stream: true }) });
    t.equal(refused.status, 503);
    t.equal(refused.headers['retry-after'], '1', 'Retry-After says when to try again');
    t.match(refused.json(), { error: { code: 'server_overloaded', type: 'server_error', param: null, message: /server\.max_in_flight.*retry in 1 s/ } });
  });

  t.test('the Messages routes answer in the Anthropic shape, as overloaded_error', async (t) => {
    const refused = await httpCall(`${base}/v1/messages`, {
      headers: { 'x-api-key': `sk-${token.key}`, 'anthropic-version': '2023-06-01' },
      body: { model: 'gx-2.5-pro', max_tokens: 64, messages: [{ role: 'user', content: 'one more' }], stream: true },
    });
    t.equal(refused.status, 503);
    t.equal(refused.headers['retry-after'], '1');
    t.match(refused.json(), { type: 'error', error: { type: 'overloaded_error', message: /server\.max_in_flight/ } });
  });

  t.test('the native routes answer in the Google shape', async (t) => {
    const refused = await httpCall(`${base}/v1beta/models/gx-2.5-pro:generateContent`, { headers: { 'x-goog-api-key': `sk-${token.key}` }, body: nativeBody('one more') });
    t.equal(refused.status, 503);
    t.equal(refused.headers['retry-after'], '1');
    t.match(refused.json(), { error: { code: 503, status: 'UNAVAILABLE', message: /server\.max_in_flight/ } });
  });

  t.test('the refusal comes before the API key is looked up: a wrong key is refused the same way', async (t) => {
    const refused = await httpCall(`${base}/v1/chat/completions`, { headers: { authorization: 'Bearer sk-not-a-real-key-at-all-0000000000' }, body: chatBody('one more') });
    t.equal(refused.status, 503);
    t.match(refused.json(), { error: { code: 'server_overloaded' } });
  });

  t.test('health, metrics, the management API and the model list are still answered', async (t) => {
    t.equal((await httpCall(`${base}/healthz`)).status, 200, '/healthz');
    t.equal((await httpCall(`${base}/api/token/`, { headers: { authorization: `Bearer ${token.loginToken}` } })).status, 200, 'the management API');
    t.equal((await httpCall(`${base}/v1/models`, { headers: bearer })).status, 200, 'GET /v1/models is not a model request');
    const metrics = await httpCall(`${base}/metrics`);
    t.equal(metrics.status, 200, '/metrics');
    t.match(metrics.body, /^gateway_refused_overload_total 4$/m, 'every refusal is counted');
    t.match(metrics.body, /^gateway_model_requests_in_flight 2$/m, 'and the requests in flight are shown');
    t.equal(inFlight.admitted, 2, 'none of these counted as a model request');
  });

  t.test('once a stream ends, the next model request is served, in each dialect', async (t) => {
    first.sent.destroy();
    await until(() => inFlight.admitted === 1);
    const chat = await httpCall(`${base}/v1/chat/completions`, { headers: bearer, body: chatBody('served now', { stream: true }) });
    t.equal(chat.status, 200);
    t.equal(streamedText(chat.body), 'echo: served now', 'the chat stream is whole');
    t.equal(sseData(chat.body).at(-1), '[DONE]');
    const native = await httpCall(`${base}/v1beta/models/gx-2.5-pro:generateContent`, { headers: { 'x-goog-api-key': `sk-${token.key}` }, body: nativeBody('served now') });
    t.equal(native.status, 200);
    t.match(native.json(), { candidates: [{ content: { parts: [{ text: 'echo: served now' }] } }] });
    const counted = await httpCall(`${base}/v1/messages/count_tokens`, {
      headers: { 'x-api-key': `sk-${token.key}`, 'anthropic-version': '2023-06-01' },
      body: { model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'served now' }] },
    });
    t.equal(counted.status, 200, 'a Messages route is served');
    t.match(counted.json(), { input_tokens: Number });
    await until(() => inFlight.admitted === 1);
    t.equal(inFlight.admitted, 1, 'each served request was counted until its answer ended, and no longer');
  });
});

t.test('the count of model requests in flight falls back to zero after streams that finished and streams whose client left', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  const inFlight = gateway.app.gateway.resolve(InFlightRequests);
  for (let index = 0; index < 10; index += 1) fake.next({ chunkDelayMs: 150 });
  const finished = Promise.all(Array.from({ length: 10 }, (_, index) => httpCall(`${base}/v1/chat/completions`, { headers: token.bearer, body: chatBody(`stream ${index} a b c`, { stream: true }) })));
  // The fake hands out behaviours in the order requests reach it: the stalls go to the second ten.
  await until(() => fake.requests.length === 10);
  for (let index = 0; index < 10; index += 1) fake.next({ stallAfterChunks: 1 });
  const left = await Promise.all(Array.from({ length: 10 }, (_, index) => openStream(`${base}/v1/chat/completions`, token.bearer, chatBody(`left ${index}`, { stream: true }))));
  t.equal(inFlight.admitted, 20, 'twenty streams are in flight');
  for (const stream of left) stream.sent.destroy();
  const answers = await finished;
  t.same(
    answers.map((answer) => answer.status),
    answers.map(() => 200),
    'the ten that ran to their end were served',
  );
  await until(() => inFlight.admitted === 0);
  t.equal(inFlight.admitted, 0, 'none is counted once its response has closed');
});

t.test('requests one after another on a keep-alive connection are each counted until their own answer ends', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)], server: { max_in_flight: 1 } });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  const inFlight = gateway.app.gateway.resolve(InFlightRequests);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const payload = JSON.stringify(chatBody('again and again', { stream: true }));
  const post = () =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const sent = request(`${base}/v1/chat/completions`, { method: 'POST', agent, headers: { ...token.bearer, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } });
      sent.on('error', reject);
      sent.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: sent.reusedSocket }));
      });
      sent.end(payload);
    });
  const answers = [];
  for (let index = 0; index < 5; index += 1) {
    answers.push(await post());
    await until(() => inFlight.admitted === 0);
  }
  t.equal(inFlight.admitted, 0, 'and none is left counted');
  t.same(
    answers.map((answer) => answer.status),
    [200, 200, 200, 200, 200],
    'with a limit of one, each of five streams in a row is served',
  );
  t.ok(answers.slice(1).every((answer) => answer.reused), 'all on the one connection');
});
