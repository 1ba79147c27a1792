import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import type { GxBehaviour } from '../fakes/gx/fake-gx-upstream.js';
import {
  chatBody,
  closedPort,
  gxChannel,
  issueToken,
  lastAttempts,
  lastRequestRecord,
  nativeBody,
  postChat,
  postNative,
  scenarioGateway,
  sseData,
  startGx,
  streamedText,
} from '../helpers/gateway-scenario.js';

/** A breaker that never opens, for scenarios about single failures. */
const patientBreaker = { max_attempts: 3, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } };

function assertOpenAiError(t: Test, response: LightMyRequestResponse, status: number, code: string): void {
  t.equal(response.statusCode, status, `answers ${status}`);
  t.match(response.json(), { error: { message: String, type: String, code, param: null } }, `in the OpenAI shape with code ${code}`);
}

t.test('a failure before the first byte moves the request to the next channel', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [
      gxChannel('gx-first', first.url, { priority: 10, timeouts: { first_byte_ms: 150 } }),
      gxChannel('gx-second', second.url, { priority: 0 }),
    ],
  });
  const token = await issueToken(t, gateway);

  const failures: Array<[string, GxBehaviour, string]> = [
    ['an HTTP 503', { error: 503 }, 'upstream_error'],
    ['an HTTP 429', { error: 429 }, 'upstream_rate_limited'],
    ['a connection reset before the headers', { resetBeforeHeaders: true }, 'upstream_unreachable'],
    ['no headers within first_byte_ms', { stallBeforeHeadersMs: 2000 }, 'upstream_timeout'],
  ];
  for (const [failure, behaviour, code] of failures) {
    for (const stream of [false, true]) {
      t.test(`${failure}${stream ? ' (streamed)' : ''}`, async (t) => {
        const before = { first: first.requests.length, second: second.requests.length };
        first.next(behaviour);
        const response = await postChat(gateway, token, chatBody(`after ${failure}`, { stream }));
        t.equal(response.statusCode, 200, 'the client gets an answer');
        if (stream) {
          t.equal(streamedText(response.payload), `echo: after ${failure}`, "the second channel's stream");
          t.equal(sseData(response.payload).at(-1), '[DONE]');
        } else {
          t.equal(response.json().choices[0].message.content, `echo: after ${failure}`, "the second channel's answer");
        }
        t.equal(first.requests.length, before.first + 1, 'the first channel was tried once');
        t.equal(second.requests.length, before.second + 1, 'the second channel answered');
        t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success'], 'the log line lists both attempts');
      });
    }
  }

  t.test('an error event before any content in a 200 stream', async (t) => {
    first.next({ sseErrorBeforeContent: true });
    const chat = await postChat(gateway, token, chatBody('error frame', { stream: true }));
    t.equal(chat.statusCode, 200);
    t.equal(streamedText(chat.payload), 'echo: error frame', 'the chat stream comes from the second channel');
    t.notMatch(chat.payload, /"error"/, 'nothing of the failed attempt reaches the client');
    t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);

    first.next({ sseErrorBeforeContent: 429 });
    const native = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('native error frame'));
    t.equal(native.statusCode, 200);
    const texts = sseData(native.payload).map((data) => JSON.parse(data).candidates?.[0]?.content?.parts?.[0]?.text ?? '');
    t.equal(texts.join(''), 'echo: native error frame', 'the native stream comes from the second channel');
    t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);
  });

  t.test('a 200 stream that ends without any event', async (t) => {
    first.next({ chunks: [] });
    const chat = await postChat(gateway, token, chatBody('empty stream', { stream: true }));
    t.equal(chat.statusCode, 200);
    t.equal(streamedText(chat.payload), 'echo: empty stream', 'the chat stream comes from the second channel');
    t.equal(sseData(chat.payload).at(-1), '[DONE]');
    t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);

    first.next({ chunks: [] });
    const native = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent', nativeBody('empty array'));
    t.equal(native.statusCode, 200);
    t.equal(JSON.parse(native.payload).at(-1).candidates[0].finishReason, 'STOP', 'the native array comes from the second channel');
    t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);
  });

  t.test('the log line names the code of the failed attempt', async (t) => {
    first.next({ error: 503 });
    await postChat(gateway, token, chatBody('logged'));
    const record = lastRequestRecord(gateway);
    t.equal(record?.msg, 'model request answered');
    t.match(record?.attempts, [
      { channel: 'gx-first', group: 'default', outcome: 'failed', status: 502, code: 'upstream_error', milliseconds: Number },
      { channel: 'gx-second', group: 'default', outcome: 'success', milliseconds: Number },
    ]);
  });
});

t.test('a channel whose port refuses connections is skipped for the next one', async (t) => {
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [
      gxChannel('gx-closed', `http://127.0.0.1:${await closedPort()}`, { priority: 10 }),
      gxChannel('gx-second', second.url),
    ],
  });
  const token = await issueToken(t, gateway);
  const response = await postChat(gateway, token, chatBody('anyone there'));
  t.equal(response.statusCode, 200);
  t.equal(response.json().choices[0].message.content, 'echo: anyone there');
  t.same(lastAttempts(gateway), ['gx-closed:failed', 'gx-second:success']);
});

t.test('an upstream 400 is the client\'s mistake: passed back in the dialect, never retried', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [gxChannel('gx-first', first.url, { priority: 10 }), gxChannel('gx-second', second.url)],
  });
  const token = await issueToken(t, gateway);

  first.next({ error: 400, message: 'Invalid value at generation_config.stop_sequences' });
  const chat = await postChat(gateway, token, chatBody('bad'));
  assertOpenAiError(t, chat, 400, 'upstream_invalid_request');
  t.match(chat.json().error.message, /stop_sequences/, "the upstream's message says what to change");
  t.equal(chat.json().error.type, 'invalid_request_error');

  first.next({ error: 400, message: 'Invalid value at generation_config.stop_sequences' });
  const native = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('bad'));
  t.equal(native.statusCode, 400);
  t.match(native.json(), { error: { code: 400, status: 'INVALID_ARGUMENT', message: /stop_sequences/ } }, 'the native shape');

  t.equal(second.requests.length, 0, 'the second channel received nothing');
  t.same(lastAttempts(gateway), ['gx-first:refused']);
});

t.test('no channel is tried twice, even when max_attempts allows more tries', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: { ...patientBreaker, max_attempts: 6 },
    providers: [gxChannel('gx-first', first.url, { priority: 10 }), gxChannel('gx-second', second.url)],
  });
  const token = await issueToken(t, gateway);
  first.next({ error: 503 });
  second.next({ error: 500 });
  const response = await postChat(gateway, token, chatBody('nobody'));
  assertOpenAiError(t, response, 502, 'upstream_error');
  t.equal(response.json().error.type, 'server_error');
  t.equal(first.requests.length, 1, 'the first channel was tried once');
  t.equal(second.requests.length, 1, 'the second channel was tried once');
  t.match(lastRequestRecord(gateway), { msg: 'model request failed', status: 502, code: 'upstream_error' }, 'the request is logged as failed');
  t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:failed'], 'the failure log line lists both attempts');
});

t.test('max_attempts caps the channels tried', async (t) => {
  const fakes = [await startGx(t), await startGx(t), await startGx(t)];
  const gateway = await scenarioGateway(t, {
    routing: { ...patientBreaker, max_attempts: 2 },
    providers: fakes.map((fake, index) => gxChannel(`gx-${index}`, fake.url, { priority: 10 - index })),
  });
  const token = await issueToken(t, gateway);
  fakes[0]!.next({ error: 503 });
  fakes[1]!.next({ error: 503 });
  const response = await postChat(gateway, token, chatBody('two tries'));
  t.equal(response.statusCode, 502);
  t.same(
    fakes.map((fake) => fake.requests.length),
    [1, 1, 0],
    'the third channel is never reached',
  );
});

t.test('higher priority tiers are tried first; lower tiers only when they fail', async (t) => {
  const low = await startGx(t);
  const high = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [gxChannel('gx-low', low.url, { priority: 0 }), gxChannel('gx-high', high.url, { priority: 5 })],
  });
  const token = await issueToken(t, gateway);
  for (let index = 0; index < 3; index += 1) {
    const response = await postChat(gateway, token, chatBody(`high ${index}`));
    t.equal(response.statusCode, 200);
  }
  t.equal(high.requests.length, 3, 'the high tier answers every request');
  t.equal(low.requests.length, 0, 'the low tier is not touched');

  high.next({ error: 503 });
  const response = await postChat(gateway, token, chatBody('fallback'));
  t.equal(response.json().choices[0].message.content, 'echo: fallback');
  t.same(lastAttempts(gateway), ['gx-high:failed', 'gx-low:success']);
});

t.test('the circuit breaker skips a failed channel, then probes it after the cool-down', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  let offset = 0;
  const gateway = await scenarioGateway(
    t,
    {
      routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1, cooldown_ms: 5000 } },
      providers: [gxChannel('gx-first', first.url, { priority: 10 }), gxChannel('gx-second', second.url)],
    },
    { clock: { now: () => Date.now() + offset } },
  );
  const token = await issueToken(t, gateway);

  first.next({ error: 503 });
  t.equal((await postChat(gateway, token, chatBody('opens'))).statusCode, 200);
  t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success'], 'the failure opens the circuit');

  t.equal((await postChat(gateway, token, chatBody('skipped'))).statusCode, 200);
  t.same(lastAttempts(gateway), ['gx-second:success'], 'the open channel is skipped');
  t.equal(first.requests.length, 1, 'no request reached the open channel');

  offset += 5001;
  t.equal((await postChat(gateway, token, chatBody('probe'))).statusCode, 200);
  t.same(lastAttempts(gateway), ['gx-first:success'], 'after the cool-down the channel is probed, and answers');
  t.equal(first.requests.length, 2);

  t.equal((await postChat(gateway, token, chatBody('closed again'))).statusCode, 200);
  t.same(lastAttempts(gateway), ['gx-first:success'], 'the successful probe closed the circuit');

  first.next({ error: 503 });
  await postChat(gateway, token, chatBody('opens again'));
  offset += 5001;
  first.next({ error: 503 });
  await postChat(gateway, token, chatBody('failed probe'));
  t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success'], 'a failed probe...');
  await postChat(gateway, token, chatBody('still open'));
  t.same(lastAttempts(gateway), ['gx-second:success'], '...opens the circuit for another cool-down');
});

t.test('a request refused for its quota does not use up the probe of a cooled-down channel', async (t) => {
  const only = await startGx(t);
  let offset = 0;
  const gateway = await scenarioGateway(
    t,
    {
      routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1, cooldown_ms: 5000 } },
      providers: [gxChannel('gx-only', only.url)],
    },
    { clock: { now: () => Date.now() + offset } },
  );
  const token = await issueToken(t, gateway);
  const poor = await issueToken(t, gateway, { remain_quota: 1 });

  only.next({ error: 503 });
  t.equal((await postChat(gateway, token, chatBody('opens'))).statusCode, 502);
  const cooling = await postChat(gateway, token, chatBody('cooling'));
  assertOpenAiError(t, cooling, 503, 'no_available_channel');
  t.match(cooling.headers['retry-after'], /^\d+$/, 'with Retry-After');

  offset += 5001;
  assertOpenAiError(t, await postChat(gateway, poor, chatBody('cannot pay')), 402, 'insufficient_quota');
  const probe = await postChat(gateway, token, chatBody('probe'));
  t.equal(probe.statusCode, 200, 'the next paying request still probes the channel');
  t.equal(only.requests.length, 2);
});

t.test('an auto token walks auto_groups; cross_group_retry lets a retry move to the next group', async (t) => {
  const inDefault = await startGx(t);
  const inVip = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    auto_groups: ['default', 'vip'],
    providers: [
      gxChannel('gx-default', inDefault.url, { groups: ['default'] }),
      gxChannel('gx-vip', inVip.url, { groups: ['vip'], models: ['gx-2.5-pro', 'gx-3-pro'] }),
    ],
  });
  const staying = await issueToken(t, gateway, { group: 'auto', cross_group_retry: false });
  const moving = await issueToken(t, gateway, { group: 'auto', cross_group_retry: true });

  t.equal((await postChat(gateway, staying, chatBody('first group'))).statusCode, 200);
  t.same(lastAttempts(gateway), ['gx-default:success'], 'the first group in auto_groups serves');

  inDefault.next({ error: 503 });
  assertOpenAiError(t, await postChat(gateway, staying, chatBody('no retry')), 502, 'upstream_error');
  t.same(lastAttempts(gateway), ['gx-default:failed'], 'without cross_group_retry the request stays in its group');
  t.equal(inVip.requests.length, 0);

  inDefault.next({ error: 503 });
  const moved = await postChat(gateway, moving, chatBody('retry elsewhere'));
  t.equal(moved.statusCode, 200);
  t.equal(moved.json().choices[0].message.content, 'echo: retry elsewhere');
  t.match(lastRequestRecord(gateway)?.attempts, [
    { channel: 'gx-default', group: 'default', outcome: 'failed' },
    { channel: 'gx-vip', group: 'vip', outcome: 'success' },
  ], 'with cross_group_retry the retry moves to the next group');

  const onlyVip = await postChat(gateway, staying, chatBody('vip model', { model: 'gx-3-pro' }));
  t.equal(onlyVip.statusCode, 200, 'a model only a later group serves is found without cross_group_retry');
  t.same(lastAttempts(gateway), ['gx-vip:success']);
});

t.test("model_map asks each channel's upstream for its own model, and the client sees its own", async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [
      gxChannel('gx-first', first.url, { priority: 10, model_map: { 'gx-latest': 'gx-2.5-pro' } }),
      gxChannel('gx-second', second.url, { model_map: { 'gx-latest': 'gx-3-pro' } }),
    ],
  });
  const token = await issueToken(t, gateway);

  const response = await postChat(gateway, token, chatBody('mapped', { model: 'gx-latest' }));
  t.equal(response.statusCode, 200);
  t.equal(response.json().model, 'gx-latest', 'the answer names the model the client asked for');
  t.equal(first.requests[0]?.path, '/v1beta/models/gx-2.5-pro:generateContent');

  first.next({ error: 503 });
  await postChat(gateway, token, chatBody('mapped again', { model: 'gx-latest', stream: true }));
  t.equal(second.requests[0]?.path, '/v1beta/models/gx-3-pro:streamGenerateContent', 'the failover channel maps with its own table');
  t.equal(second.requests[0]?.query.alt, 'sse');
});

t.test("a channel whose key the upstream refuses is the channel's failure: the next channel answers and the client never sees the refusal", async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await scenarioGateway(t, {
    routing: patientBreaker,
    providers: [gxChannel('gx-first', first.url, { priority: 10, api_key: 'a-revoked-channel-key' }), gxChannel('gx-second', second.url, { priority: 0 })],
  });
  const token = await issueToken(t, gateway);
  for (const stream of [false, true]) {
    const chat = await postChat(gateway, token, chatBody('refused key', { stream }));
    t.equal(chat.statusCode, 200, `${stream ? 'stream' : 'non-stream'}: the second channel answers`);
    t.same(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success'], 'the refusal counts against the first channel');
    t.match(lastRequestRecord(gateway)?.attempts?.[0], { status: 502, code: 'upstream_auth_failed' });
  }
  const native = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('refused key'));
  t.equal(native.statusCode, 200, 'the native route fails over too');

  const alone = await scenarioGateway(t, { providers: [gxChannel('gx-first', first.url, { api_key: 'a-revoked-channel-key' })] });
  const aloneToken = await issueToken(t, alone);
  const refused = await postChat(alone, aloneToken, chatBody('refused key'));
  assertOpenAiError(t, refused, 502, 'upstream_auth_failed');
  t.notMatch(refused.payload, /API key not valid/, "the upstream's words about the channel's key are not passed on as the client's mistake");
});
