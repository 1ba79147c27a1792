import t, { type Test } from 'tap';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { chatBody, gxChannel, gxUpstreamKey, issueToken, lastAttempts, nativeBody, postChat, postNative, scenarioGateway, scenarioPricing } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// On a channel serving a pattern (`gx-8*`, as the shipped config recommends) a client can
// name any model, and the upstream answers a name it does not know with 404 NOT_FOUND. That
// is the client's mistake for that model on that channel: once, the fifth such answer opened
// the channel's circuit, and another user's real model on it got 503 for 30 seconds.

const failureThreshold = 5;
const pricing = { ...scenarioPricing, 'gx-8*': { input_per_mtok: 2, output_per_mtok: 12 } };

async function gxKnowing(t: Test, models: string[]): Promise<FakeGxUpstream> {
  const fake = await startFakeGxUpstream({ apiKey: gxUpstreamKey, models });
  t.teardown(() => fake.close());
  return fake;
}

/** The channel's circuit state as `/metrics` shows it: 0 closed (or a channel the breaker has nothing on), 1 half-open, 2 open. */
async function circuitState(gateway: TestApp, channel: string): Promise<number> {
  const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`gateway_circuit_state{channel="${channel}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

t.test('made-up names past the failure threshold on a gx pattern channel get 404 model_not_found, and a real model on the channel is served after', async (t) => {
  const fake = await gxKnowing(t, ['gx-8-pro']);
  const gateway = await scenarioGateway(t, { pricing, providers: [gxChannel('gx-pattern', fake.url, { models: ['gx-8*'] })] });
  const token = await issueToken(t, gateway);

  for (let index = 0; index < failureThreshold * 2; index += 1) {
    const response = await postChat(gateway, token, chatBody('hi', { model: `gx-8-made-up-${index}` }));
    t.equal(response.statusCode, 404, `made-up name ${index} is a 404`);
    t.match(response.json().error, { code: 'model_not_found', type: 'invalid_request_error', message: /upstream does not know this model.*gx-8-made-up/ });
  }
  const native = await postNative(gateway, token, 'gx-8-made-up-native:generateContent', nativeBody('hi'));
  t.equal(native.statusCode, 404, 'the native route answers 404 too');
  t.match(native.json().error, { code: 404, status: 'NOT_FOUND', message: /upstream does not know this model/ }, 'in its own dialect');

  const real = await postChat(gateway, token, chatBody('hi', { model: 'gx-8-pro' }));
  t.equal(real.statusCode, 200, 'another user’s real model on the channel is served');
  t.equal(await circuitState(gateway, 'gx-pattern'), 0, 'the circuit is closed');
});

t.test('with two channels serving the pattern, a name the first upstream does not know is served by the second, and the first stays in the rotation', async (t) => {
  const first = await gxKnowing(t, []);
  const second = await gxKnowing(t, ['gx-8-pro']);
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: [gxChannel('gx-first', first.url, { models: ['gx-8*'], priority: 10 }), gxChannel('gx-second', second.url, { models: ['gx-8*'] })],
  });
  const token = await issueToken(t, gateway);

  for (let index = 0; index < failureThreshold * 2; index += 1) {
    const response = await postChat(gateway, token, chatBody('hi', { model: 'gx-8-pro' }));
    t.equal(response.statusCode, 200, `request ${index} is served`);
    t.same(lastAttempts(gateway), ['gx-first:refused', 'gx-second:success'], 'by the second channel, after the first was asked');
  }
  t.equal(await circuitState(gateway, 'gx-first'), 0, 'the first channel’s circuit is still closed');

  const unknown = await postChat(gateway, token, chatBody('hi', { model: 'gx-8-nowhere' }));
  t.equal(unknown.statusCode, 404, 'a name neither upstream knows is a 404 once both were asked');
  t.match(unknown.json().error, { code: 'model_not_found', message: /upstream does not know this model/ });
  t.same(lastAttempts(gateway), ['gx-first:refused', 'gx-second:refused']);
});

t.test('a file the client names that the upstream will not let the channel read (403 without a reason) opens no circuit either', async (t) => {
  const fake = await gxKnowing(t, ['gx-8-pro']);
  const gateway = await scenarioGateway(t, { pricing, providers: [gxChannel('gx-pattern', fake.url, { models: ['gx-8*'] })] });
  const token = await issueToken(t, gateway);
  const withFile = { contents: [{ role: 'user', parts: [{ text: 'describe it' }, { fileData: { mimeType: 'image/png', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/not-mine' } }] }] };

  for (let index = 0; index < failureThreshold * 2; index += 1) {
    fake.next({ status: 403, message: 'You do not have permission to access the File not-mine or it may not exist.' });
    const response = await postNative(gateway, token, 'gx-8-pro:generateContent', withFile);
    t.equal(response.statusCode, 403, `refusal ${index} is a 403`);
    t.match(response.json().error, { status: 'PERMISSION_DENIED', message: /access the File not-mine/ }, 'in the upstream’s words');
  }
  t.equal((await postChat(gateway, token, chatBody('hi', { model: 'gx-8-pro' }))).statusCode, 200, 'the channel still serves');
});
