import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import {
  chatBody,
  gxChannel,
  issueToken,
  nativeBody,
  postChat,
  postNative,
  scenarioGateway,
  scenarioPricing,
  sseData,
  startGx,
  storedToken,
  waitForToken,
  type IssuedToken,
} from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

/** The tokens the gateway holds for a chat request before it is answered: a quarter of the messages' JSON bytes, plus max_tokens. */
function estimatedTokens(body: { messages: unknown; max_tokens: number }): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(body.messages)) / 4) + body.max_tokens;
}

/** A chat body the gateway estimates at exactly `tokens` tokens. */
function chatOf(tokens: number, text = 'hi', fields: Record<string, unknown> = {}) {
  const promptTokens = estimatedTokens({ ...chatBody(text), max_tokens: 0 });
  const body = chatBody(text, { max_tokens: tokens - promptTokens, ...fields });
  return body as ReturnType<typeof chatBody> & { max_tokens: number };
}

/** A gx answer whose usage is exactly `input` prompt and `output` candidate tokens. */
const answerWithUsage = (input: number, output: number) => ({
  candidates: [{ content: { parts: [{ text: 'counted' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
  modelVersion: 'gx-2.5-pro',
});

/** A gateway in front of one fake gx channel with the given `rate_limits`. */
async function limitedGateway(t: Test, rateLimits: Record<string, unknown>, channel: Record<string, unknown> = {}): Promise<{ fake: FakeGxUpstream; gateway: TestApp }> {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url, channel)], rate_limits: rateLimits });
  return { fake, gateway };
}

/** Asserts a 429 in the OpenAI shape and returns its Retry-After in seconds. */
function isRateLimited(t: Test, response: LightMyRequestResponse, message: RegExp): number {
  t.equal(response.statusCode, 429, 'HTTP 429');
  t.match(response.json(), { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message, param: null } });
  return Number(response.headers['retry-after']);
}

t.test('requests per minute, per API key', async (t) => {
  const { fake, gateway } = await limitedGateway(t, { tokens: { requests_per_minute: 3 } });
  const token = await issueToken(t, gateway);
  const other = await issueToken(t, gateway);

  const firstCallAt = Date.now();
  for (let count = 1; count <= 3; count += 1) t.equal((await postChat(gateway, token, chatBody(`call ${count}`))).statusCode, 200, `request ${count} is answered`);
  const before = await storedToken(gateway, token);
  const refused = await postChat(gateway, token, chatBody('one too many'));
  t.equal(isRateLimited(t, refused, /this API key allows 3 requests per minute; retry in 20 s/), 20, 'Retry-After: one request fits again every 20 s');
  t.equal(fake.requests.length, 3, 'the refused request never reached the upstream');
  t.same(await storedToken(gateway, token), before, 'and touched no quota');

  const native = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('native too'));
  t.equal(native.statusCode, 429);
  t.match(native.json(), { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: /3 requests per minute/ } });
  // The same bucket's countdown: 20 s less the time since its first request, which on a
  // loaded machine can have passed a whole second by now.
  const nativeRetry = Number(native.headers['retry-after']);
  const lowest = 20 - Math.ceil((Date.now() - firstCallAt) / 1000);
  t.ok(nativeRetry <= 20 && nativeRetry >= lowest, `in the native dialect too (Retry-After ${native.headers['retry-after']}, at least ${lowest})`);

  t.equal((await postChat(gateway, other, chatBody('my own minute'))).statusCode, 200, 'another API key has its own limit');
  t.equal((await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer })).statusCode, 200, 'listing models is not limited');
  t.equal((await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/' })).statusCode, 200, 'nor is the management API');
});

t.test("requests per minute, for a group's API keys together", async (t) => {
  const { gateway } = await limitedGateway(t, { groups: { default: { requests_per_minute: 2 } } });
  const first = await issueToken(t, gateway);
  const second = await issueToken(t, gateway);
  t.equal((await postChat(gateway, first, chatBody('one'))).statusCode, 200);
  t.equal((await postChat(gateway, second, chatBody('two'))).statusCode, 200);
  isRateLimited(t, await postChat(gateway, second, chatBody('three')), /group "default" allows 2 requests per minute/);
  isRateLimited(t, await postChat(gateway, first, chatBody('four')), /group "default" allows 2 requests per minute/);
});

t.test('a request refused for quota does not count against the requests per minute', async (t) => {
  const { gateway } = await limitedGateway(t, { tokens: { requests_per_minute: 1 } });
  const token = await issueToken(t, gateway, { remain_quota: 5000 });
  t.equal((await postChat(gateway, token, chatOf(100_000))).statusCode, 402, 'a 100,000-token reservation does not fit 5000 units');
  t.equal((await postChat(gateway, token, chatOf(100))).statusCode, 200, 'the minute still has its one request');
});

t.test('a request no channel answered gives its tokens back but still counts as a request', async (t) => {
  const { fake, gateway } = await limitedGateway(t, { tokens: { requests_per_minute: 2, tokens_per_minute: 1000 } });
  const token = await issueToken(t, gateway);
  fake.next({ error: 400 });
  t.equal((await postChat(gateway, token, chatOf(600))).statusCode, 400, 'the upstream refused the request');
  t.equal((await postChat(gateway, token, chatOf(600))).statusCode, 200, 'its 600 tokens came back');
  isRateLimited(t, await postChat(gateway, token, chatOf(10)), /2 requests per minute/);
});

t.test('tokens per minute, per API key', async (t) => {
  const { fake, gateway } = await limitedGateway(t, { tokens: { tokens_per_minute: 1000 } });
  const token = await issueToken(t, gateway);

  t.test('a request holds its estimate (prompt and max_tokens) until it settles at its real usage', async (t) => {
    t.equal(estimatedTokens(chatOf(600)), 600);
    t.equal((await postChat(gateway, token, chatOf(600))).statusCode, 200);
    t.equal((await postChat(gateway, token, chatOf(600))).statusCode, 200, "the first request's unused tokens came back when it settled");
  });

  t.test('requests in flight together cannot hold more than the limit', async (t) => {
    const token = await issueToken(t, gateway);
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.app.server.address() as AddressInfo;
    const before = await storedToken(gateway, token);
    fake.next({ stallAfterChunks: 1 });
    // An open stream holds its 600 tokens until it ends; the client leaves after the first event.
    let leave = () => {};
    const opened = new Promise<void>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { ...token.bearer, 'content-type': 'application/json' } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
            if (sseData(text).length >= 1) resolve();
          });
          response.on('error', () => {});
        },
      );
      leave = () => request.destroy();
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      request.end(JSON.stringify(chatOf(600, 'one two three', { stream: true })));
    });
    await opened;
    const refused = await postChat(gateway, token, chatOf(600));
    t.equal(isRateLimited(t, refused, /1000 tokens per minute, and this request needs room for 600/), 12, 'Retry-After: 200 tokens over, at 1000 a minute');
    leave();
    await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
    t.equal((await postChat(gateway, token, chatOf(600))).statusCode, 200, 'the stream that ended gave back what it did not use');
  });
});

t.test('a stream counts its real tokens once it ends', async (t) => {
  const { fake, gateway } = await limitedGateway(t, { tokens: { tokens_per_minute: 1000 } });
  const token = await issueToken(t, gateway);
  fake.next({ chunks: [answerWithUsage(400, 500)] });
  const streamed = await postChat(gateway, token, chatOf(100, 'hi', { stream: true }));
  t.equal(streamed.statusCode, 200);
  t.match(sseData(streamed.payload).at(-1), '[DONE]');
  await waitForToken(gateway, token, (stored) => stored.used_quota > 0);
  const refused = await postChat(gateway, token, chatOf(200));
  t.equal(isRateLimited(t, refused, /needs room for 200/), 6, 'the stream used 900 of 1000: 200 more is 100 over, 6 s at 1000 a minute');
});

t.test('tokens per minute, for a group', async (t) => {
  const { fake, gateway } = await limitedGateway(t, { groups: { default: { tokens_per_minute: 1000 } } });
  const first = await issueToken(t, gateway);
  const second = await issueToken(t, gateway);
  fake.next({ json: answerWithUsage(300, 400) });
  t.equal((await postChat(gateway, first, chatOf(100))).statusCode, 200);
  isRateLimited(t, await postChat(gateway, second, chatOf(400)), /group "default" allows 1000 tokens per minute/);
  t.equal((await postChat(gateway, second, chatOf(300))).statusCode, 200, 'what is left of the minute is shared');
});

t.test('the images routes answer 429 in their own error shape', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, {
    pricing: { ...scenarioPricing, 'gx-2.5-flash-image': { per_image: 0.04 } },
    providers: [gxChannel('gx-images', fake.url, { models: ['gx-2.5-flash-image'] })],
    rate_limits: { tokens: { requests_per_minute: 1 } },
  });
  const token = await issueToken(t, gateway);
  const generate = () =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/images/generations',
      headers: { ...token.bearer, 'content-type': 'application/json' },
      payload: { model: 'gx-2.5-flash-image', prompt: 'a lighthouse' },
    });
  t.equal((await generate()).statusCode, 200);
  const refused = await generate();
  t.equal(refused.statusCode, 429);
  t.strictSame(Object.keys(refused.json().error), ['message', 'type', 'code']);
  t.match(refused.json(), { error: { code: 'rate_limit_exceeded', type: 'invalid_request_error', message: /1 requests per minute/ } });
  t.equal(refused.headers['retry-after'], '60');
});

t.test('video polls do not count, submissions do', async (t) => {
  const scriptedVideoPlugin = fileURLToPath(new URL('../fixtures/plugins/scripted-video-provider.ts', import.meta.url));
  const gateway = await scenarioGateway(t, {
    pricing: { 'vx-test': { per_second: 0.1 } },
    providers: [{ name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] }],
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    rate_limits: { tokens: { requests_per_minute: 1 } },
  });
  const token = await issueToken(t, gateway);
  const submit = () =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/video/generations',
      headers: { ...token.bearer, 'content-type': 'application/json' },
      payload: { model: 'vx-test', prompt: 'a fox, seconds: 4, script: queued in_progress succeeded' },
    });
  const submitted = await submit();
  t.equal(submitted.statusCode, 200);
  const id = submitted.json().task_id as string;
  for (let poll = 0; poll < 3; poll += 1) {
    t.equal((await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer })).statusCode, 200, `poll ${poll + 1}`);
  }
  isRateLimited(t, await submit(), /1 requests per minute/);
});

for (const driver of ['sqlite', 'redis', 'postgres'] as const) {
  t.test(`on ${driver}, two gateways on one store share the limits exactly`, async (t) => {
    const fake = await startGx(t);
    const config = testConfig(storageFor(t, driver), {
      pricing: scenarioPricing,
      providers: [gxChannel('gx-main', fake.url, { groups: ['default', 'vip'] })],
      rate_limits: { tokens: { requests_per_minute: 10 }, groups: { vip: { tokens_per_minute: 1000 } } },
    });
    const gateways = [await buildTestApp(t, driver, {}, { config }), await buildTestApp(t, driver, {}, { config })];
    const concurrently = (token: IssuedToken, body: unknown) =>
      Promise.all(Array.from({ length: 40 }, (_, index) => postChat(gateways[index % 2] as TestApp, token, body)));
    const statuses = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode).sort();

    t.test('40 concurrent requests against 10 a minute: exactly 10 are answered', async (t) => {
      const token = await issueToken(t, gateways[0] as TestApp);
      const responses = await concurrently(token, chatBody('hi'));
      t.same(statuses(responses), [...Array(10).fill(200), ...Array(30).fill(429)]);
    });

    t.test("40 concurrent requests of 200 tokens against a group's 1000 a minute: exactly 5 are answered", async (t) => {
      const token = await issueToken(t, gateways[1] as TestApp, { group: 'vip' });
      const body = chatOf(200);
      // Each request uses exactly its estimate, so settling gives nothing back and only the limit decides.
      const prompt = 200 - body.max_tokens;
      for (let count = 0; count < 5; count += 1) fake.next({ json: answerWithUsage(prompt, body.max_tokens) });
      const responses = await concurrently(token, body);
      t.same(statuses(responses), [...Array(5).fill(200), ...Array(35).fill(429)]);
    });
  });
}
