import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { answerGenerateContent } from '../fakes/gx/generate-answer.js';
import {
  chatBody,
  gxChannel,
  issueToken,
  lastRequestRecord,
  nativeBody,
  postChat,
  postNative,
  scenarioGateway,
  sseData,
  startGx,
  startTcpRelay,
  storedToken,
  waitForToken,
} from '../helpers/gateway-scenario.js';

// gx-2.5-pro costs 1.25 USD per million input tokens and 10 per million output tokens, so a
// token is 0.625 (input) or 5 (output) quota units at 500000 units per USD. In thousandths of
// a unit both are integers, which keeps the expected numbers exact:
// units = ceil((input × 625 + output × 5000) / 1000 × ratio).
interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}

function expectedUnits(usage: UsageMetadata, ratio: { numerator: number; denominator: number } = { numerator: 1, denominator: 1 }): number {
  const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  const thousandths = (usage.promptTokenCount ?? 0) * 625 + output * 5000;
  return Math.ceil((thousandths * ratio.numerator) / (1000 * ratio.denominator));
}

const vipRatio = { numerator: 8, denominator: 10 };

/** A whole generateContent answer with the given usage. */
const answerWithUsage = (usageMetadata: UsageMetadata & { totalTokenCount?: number }) => ({
  candidates: [{ content: { parts: [{ text: 'billed' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata,
  modelVersion: 'gx-2.5-pro',
  responseId: 'billing-response',
});

const startingQuota = 5_000_000;

t.test('a request costs ceil(USD × 500000 × group ratio) of the usage the upstream reported', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url, { groups: ['default', 'vip'], models: ['gx-2.5-pro*'] })] });

  t.test('a default token pays the full price; remain_quota and used_quota move together', async (t) => {
    const token = await issueToken(t, gateway);
    const usage = { promptTokenCount: 1001, candidatesTokenCount: 333, totalTokenCount: 1334 };
    fake.next({ json: answerWithUsage(usage) });
    const response = await postChat(gateway, token, chatBody('price me'));
    t.equal(response.statusCode, 200);
    t.match(response.json().usage, { prompt_tokens: 1001, completion_tokens: 333 });
    const units = expectedUnits(usage);
    t.equal(units, 2291, '(1001 × 1.25 + 333 × 10) / 10^6 USD × 500000 = 2290.625, rounded up');
    t.match(await storedToken(gateway, token), { remain_quota: startingQuota - units, used_quota: units });
  });

  t.test('a vip token pays 0.8 times as much', async (t) => {
    const token = await issueToken(t, gateway, { group: 'vip' });
    const usage = { promptTokenCount: 1001, candidatesTokenCount: 333, totalTokenCount: 1334 };
    fake.next({ json: answerWithUsage(usage) });
    t.equal((await postChat(gateway, token, chatBody('price me'))).statusCode, 200);
    const units = expectedUnits(usage, vipRatio);
    t.equal(units, 1833, '2290.625 × 0.8 = 1832.5, rounded up');
    t.match(await storedToken(gateway, token), { remain_quota: startingQuota - units, used_quota: units });
  });

  t.test("the fake's own usage, with thinking tokens, on a vip token", async (t) => {
    const token = await issueToken(t, gateway, { group: 'vip' });
    const response = await postChat(gateway, token, chatBody('think about the price', { model: 'gx-2.5-pro-thinking-512' }));
    t.equal(response.statusCode, 200);
    const sent = fake.requests.at(-1)!;
    const usage = answerGenerateContent('gx-2.5-pro', sent.json, 'any').response.usageMetadata as UsageMetadata;
    t.ok((usage.thoughtsTokenCount ?? 0) > 0, 'the upstream reported thinking tokens');
    const units = expectedUnits(usage, vipRatio);
    t.match(await storedToken(gateway, token), { remain_quota: startingQuota - units, used_quota: units }, 'thinking is billed as output');
  });

  t.test('a stream is billed from the usage of its last event', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postChat(gateway, token, chatBody('stream the price please', { stream: true }));
    t.equal(sseData(response.payload).at(-1), '[DONE]');
    const usage = answerGenerateContent('gx-2.5-pro', fake.requests.at(-1)!.json, 'any').chunks.at(-1)!.usageMetadata as UsageMetadata;
    const units = expectedUnits(usage);
    t.match(await waitForToken(gateway, token, (stored) => stored.used_quota > 0), { remain_quota: startingQuota - units, used_quota: units });
    t.match(lastRequestRecord(gateway), { msg: 'model request answered', stream: true, end: 'completed', usage_source: 'upstream' }, 'its log line, written at the end, says it completed on the upstream\'s usage');
  });

  t.test('a native generateContent is billed from its usageMetadata', async (t) => {
    const token = await issueToken(t, gateway, { group: 'vip' });
    const usage = { promptTokenCount: 77, candidatesTokenCount: 5, totalTokenCount: 82 };
    fake.next({ json: answerWithUsage(usage) });
    t.equal((await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('native price'))).statusCode, 200);
    const units = expectedUnits(usage, vipRatio);
    t.match(await storedToken(gateway, token), { remain_quota: startingQuota - units, used_quota: units });
  });
});

t.test('an answer without usage is billed on the gateway\'s estimate, never for nothing', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const { usageMetadata: _none, ...withoutUsage } = answerWithUsage({});
  fake.next({ json: withoutUsage });
  const response = await postChat(gateway, token, chatBody('no usage reported for this prompt'));
  t.equal(response.statusCode, 200);
  const stored = await storedToken(gateway, token);
  t.ok(stored.used_quota > 0, `charged ${stored.used_quota} units`);
  t.equal(stored.remain_quota + stored.used_quota, startingQuota);
  t.match(lastRequestRecord(gateway), { msg: 'model request answered', usage_source: 'estimated' }, 'the log line says the usage was estimated');
});

t.test('a request that fails on every channel refunds everything', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-first', first.url, { priority: 1 }), gxChannel('gx-second', second.url)],
  });
  const token = await issueToken(t, gateway);

  first.next({ error: 503 });
  second.next({ error: 429 });
  t.equal((await postChat(gateway, token, chatBody('nobody answers'))).statusCode, 429);
  t.match(await storedToken(gateway, token), { remain_quota: startingQuota, used_quota: 0 }, 'the non-stream hold is given back');

  first.next({ sseErrorBeforeContent: true });
  second.next({ resetBeforeHeaders: true });
  const streamed = await postChat(gateway, token, chatBody('nobody streams', { stream: true }));
  t.equal(streamed.statusCode, 502);
  t.match(await storedToken(gateway, token), { remain_quota: startingQuota, used_quota: 0 }, 'the stream hold is given back');
});

t.test('a token that cannot cover the estimate gets 402 before any upstream call', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway, { remain_quota: 10 });
  const response = await postChat(gateway, token, chatBody('too expensive'));
  t.equal(response.statusCode, 402);
  t.match(response.json(), { error: { type: 'insufficient_quota', code: 'insufficient_quota', message: /quota/ } });
  const native = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('too expensive'));
  t.match(native.json(), { error: { code: 402, status: 'RESOURCE_EXHAUSTED' } }, 'in the native shape on /v1beta');
  t.equal(fake.requests.length, 0, 'the upstream received nothing');
  t.match(await storedToken(gateway, token), { remain_quota: 10, used_quota: 0, status: 1 });
});

t.test('a token whose quota runs out is charged what it had and stored as exhausted (status 4)', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway, { remain_quota: 1000 });
  // The estimate (a short prompt, max_tokens 1) fits; the answer costs 67500 units.
  fake.next({ json: answerWithUsage({ promptTokenCount: 100_000, candidatesTokenCount: 1000, totalTokenCount: 101_000 }) });
  t.equal((await postChat(gateway, token, chatBody('spend it all', { max_tokens: 1 }))).statusCode, 200);
  t.match(await storedToken(gateway, token), { remain_quota: 0, used_quota: 1000, status: 4 });

  const refused = await postChat(gateway, token, chatBody('more'));
  t.equal(refused.statusCode, 402, 'the exhausted token is refused');
  t.equal(fake.requests.length, 1);
});

t.test('a token whose quota exactly covers the cost reaches 0 and is stored as exhausted', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const usage = { promptTokenCount: 8, candidatesTokenCount: 20, totalTokenCount: 28 };
  const units = expectedUnits(usage);
  const token = await issueToken(t, gateway, { remain_quota: units });
  fake.next({ json: answerWithUsage(usage) });
  t.equal((await postChat(gateway, token, chatBody('exact', { max_tokens: 1 }))).statusCode, 200);
  t.match(await storedToken(gateway, token), { remain_quota: 0, used_quota: units, status: 4 });
});

t.test('a model without a price is refused unless billing.allow_free_models is set', async (t) => {
  const fake = await startGx(t);
  const providers = [gxChannel('gx-main', fake.url, { models: ['gx-2.5-pro', 'gx-3*'] })];
  const pricing = { 'gx-2.5-pro': { input_per_mtok: 1.25, output_per_mtok: 10 } };

  const strict = await scenarioGateway(t, { providers, pricing });
  const strictToken = await issueToken(t, strict);
  const refused = await postChat(strict, strictToken, chatBody('free?', { model: 'gx-3-pro' }));
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), { error: { code: 'model_price_missing', param: 'model', message: /gx-3-pro.*pricing/ } });
  t.equal(fake.requests.length, 0, 'the upstream received nothing');

  const lenient = await scenarioGateway(t, { providers, pricing, billing: { allow_free_models: true } });
  const lenientToken = await issueToken(t, lenient);
  const free = await postChat(lenient, lenientToken, chatBody('free!', { model: 'gx-3-pro' }));
  t.equal(free.statusCode, 200);
  t.match(await storedToken(lenient, lenientToken), { remain_quota: startingQuota, used_quota: 0 }, 'a free model costs nothing');
});

t.test('an unlimited token holds nothing but still accumulates used_quota', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway, { unlimited_quota: true, remain_quota: 0 });
  const usage = { promptTokenCount: 1001, candidatesTokenCount: 333, totalTokenCount: 1334 };
  fake.next({ json: answerWithUsage(usage) });
  t.equal((await postChat(gateway, token, chatBody('on the house'))).statusCode, 200);
  fake.next({ json: answerWithUsage(usage) });
  t.equal((await postChat(gateway, token, chatBody('again'))).statusCode, 200);
  t.match(await storedToken(gateway, token), { remain_quota: 0, used_quota: 2 * expectedUnits(usage), status: 1 });
});

t.test('a client that aborts mid-stream is billed for the usage so far, and the upstream connection is closed', async (t) => {
  const fake = await startGx(t);
  const relay = await startTcpRelay(t, fake.url);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', relay.url)] });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;

  fake.next({ stallAfterChunks: 2 });
  const received = await new Promise<string[]>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { ...token.bearer, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          const events = sseData(text);
          if (events.length >= 2) {
            request.destroy();
            resolve(events);
          }
        });
        response.on('error', () => {});
      },
    );
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify(chatBody('one two three four five six seven', { stream: true })));
  });
  t.equal(received.length, 2, 'the client read two chunks, then went away');

  await relay.waitForClosed(1);
  t.pass('the gateway closed its connection to the upstream');

  const usage = answerGenerateContent('gx-2.5-pro', fake.requests[0]!.json, 'any').chunks[1]!.usageMetadata as UsageMetadata;
  const units = expectedUnits(usage);
  const stored = await waitForToken(gateway, token, (token) => token.used_quota > 0);
  t.match(stored, { remain_quota: startingQuota - units, used_quota: units }, 'billed from the usage of the second event');
  t.match(
    lastRequestRecord(gateway),
    { msg: 'model request answered', stream: true, end: 'client_gone', usage_source: 'upstream' },
    'the request was logged as answered (the stream had started), ended by the client',
  );
});

t.test('a client that leaves before any answer pays for its prompt: the upstream call is aborted, the estimate of the prompt billed', async (t) => {
  const fake = await startGx(t);
  const relay = await startTcpRelay(t, fake.url);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', relay.url)] });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;

  for (const stream of [false, true]) {
    const token = await issueToken(t, gateway);
    const body = chatBody('one two three four five six seven', stream ? { stream: true } : {});
    const upstreamRequests = fake.requests.length;
    fake.next({ stallBeforeHeadersMs: 3000 });
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { ...token.bearer, 'content-type': 'application/json' } });
    request.on('error', () => {});
    request.end(JSON.stringify(body));
    while (fake.requests.length === upstreamRequests) await new Promise((resolve) => setTimeout(resolve, 10));
    request.destroy();
    await relay.waitForClosed(upstreamRequests + 1);
    t.pass(`${stream ? 'stream' : 'non-stream'}: the gateway closed its connection to the upstream`);

    // The estimate in docs/request-pipeline.md: a quarter of the bytes of the messages' JSON, at the input price.
    const promptTokens = Math.ceil(Buffer.byteLength(JSON.stringify(body.messages)) / 4);
    const units = expectedUnits({ promptTokenCount: promptTokens });
    const stored = await waitForToken(gateway, token, (current) => current.used_quota > 0);
    t.match(stored, { used_quota: units, remain_quota: startingQuota - units }, `${stream ? 'stream' : 'non-stream'}: the prompt is billed (${units} units), nothing for output`);
    t.match(lastRequestRecord(gateway), { msg: 'model request failed', code: 'client_closed_request', usage_source: 'estimated' });
  }
});
