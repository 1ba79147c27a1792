import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { shuttingDown } from '../../core/errors/error-codes.js';
import { InFlightRequests } from '../../core/pipeline/in-flight-requests.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { chatBody, gxChannel, issueToken, nativeBody, postChat, postNative, scenarioGateway, sseData, startGx, streamedText, waitForToken } from '../helpers/gateway-scenario.js';

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: string; content?: string }; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

const chunksOf = (payload: string): Chunk[] =>
  sseData(payload)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Chunk);

/** The last event of a stream, parsed, when it is an in-band error. */
function assertInBandError(t: Test, payload: string, code: string): Record<string, any> {
  const events = sseData(payload);
  t.not(events.at(-1), '[DONE]', 'the stream does not pretend to be complete');
  const last = JSON.parse(events.at(-1) ?? '{}');
  t.match(last, { error: { message: String, type: 'server_error', code, param: null } }, `the stream ends with an in-band ${code} error in the OpenAI shape`);
  return last;
}

async function gatewayWithChannel(t: Test, channel: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url, channel)], ...overrides });
  const token = await issueToken(t, gateway);
  return { fake, gateway, token };
}

t.test('a chat stream is chat.completion.chunk events with one id, the role first and [DONE] last', async (t) => {
  const { gateway, token } = await gatewayWithChannel(t);
  const response = await postChat(gateway, token, chatBody('stream these words', { stream: true }));
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^text\/event-stream/);
  t.equal(response.headers['cache-control'], 'no-cache');
  t.equal(response.headers['x-accel-buffering'], 'no');

  const events = sseData(response.payload);
  t.equal(events.at(-1), '[DONE]', '[DONE] is the last event');
  t.equal(events.filter((event) => event === '[DONE]').length, 1, 'and comes once');
  const chunks = chunksOf(response.payload);
  t.ok(chunks.length >= 3, 'the answer arrives in several chunks');
  t.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk'), 'every event is a chat.completion.chunk');
  t.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1, 'every chunk has the same id');
  t.ok(chunks.every((chunk) => chunk.model === 'gx-2.5-pro' && chunk.created === chunks[0]!.created));
  t.equal(chunks[0]!.choices[0]!.delta.role, 'assistant', 'the first chunk carries the role');
  t.ok(chunks.slice(1).every((chunk) => chunk.choices[0]?.delta.role === undefined), 'later chunks do not');
  t.equal(streamedText(response.payload), 'echo: stream these words');
  t.equal(chunks.at(-1)!.choices[0]!.finish_reason, 'stop');
  t.ok(chunks.every((chunk) => !('usage' in chunk)), 'no usage without stream_options.include_usage');
});

t.test('stream_options.include_usage adds usage: null to each chunk and one usage chunk before [DONE]', async (t) => {
  const { gateway, token } = await gatewayWithChannel(t);
  const response = await postChat(gateway, token, chatBody('count my tokens', { stream: true, stream_options: { include_usage: true } }));
  const chunks = chunksOf(response.payload);
  const usageChunk = chunks.at(-1)!;
  t.same(usageChunk.choices, [], 'the usage chunk has no choices');
  t.match(usageChunk.usage, { prompt_tokens: Number, completion_tokens: Number, total_tokens: Number });
  t.equal(usageChunk.usage!.total_tokens, usageChunk.usage!.prompt_tokens + usageChunk.usage!.completion_tokens);
  t.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null), 'every other chunk has usage: null');
  t.equal(sseData(response.payload).at(-1), '[DONE]');

  const without = await postChat(gateway, token, chatBody('count my tokens', { stream: true, stream_options: { include_usage: false } }));
  t.notOk(chunksOf(without.payload).some((chunk) => chunk.choices.length === 0), 'include_usage false: no usage chunk');
});

t.test('while the upstream is idle the client gets ": ping" comments', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t, {}, { streaming: { keepalive_ms: 100 } });
  fake.next({ stallAfterChunks: 1, stallMs: 450 });
  const response = await postChat(gateway, token, chatBody('wait for it', { stream: true }));
  const firstData = response.payload.indexOf('data:');
  const ping = response.payload.indexOf(': ping\n\n');
  t.ok(ping > firstData, 'a ping follows the first chunk');
  t.ok(ping < response.payload.lastIndexOf('data:'), 'and comes before the rest of the answer');
  t.equal(streamedText(response.payload), 'echo: wait for it', 'the pings do not disturb the answer');
  t.equal(sseData(response.payload).at(-1), '[DONE]');
});

t.test('a Responses stream gets ": ping" comments while the upstream is silent after content, and none before it', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: 'openai-key' });
  t.teardown(() => fake.close());
  const gateway = await scenarioGateway(t, {
    pricing: { 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } },
    providers: [{ name: 'gp-main', plugin: 'gp', base_url: fake.url, api_key: 'openai-key', models: ['gp-5.4'] }],
    streaming: { keepalive_ms: 100 },
  });
  const token = await issueToken(t, gateway);
  const respond = () => gateway.app.inject({ method: 'POST', url: '/v1/responses', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'gp-5.4', input: 'wait for it', stream: true } });
  const eventTypes = (payload: string) => [...payload.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);

  // The gateway holds a stream until its first content (so an early failure can fail over): only then do pings start.
  for (const [when, stallAfterChunks, pinged] of [['after the first text delta', 5, true], ['before any event', 0, false]] as const) {
    t.test(`silent ${when}`, async (t) => {
      fake.next({ stallAfterChunks, stallMs: 450 });
      const response = await respond();
      t.equal(response.statusCode, 200);
      const firstDelta = response.payload.indexOf('event: response.output_text.delta');
      const ping = response.payload.indexOf(': ping\n\n');
      if (pinged) {
        t.ok(ping > firstDelta && firstDelta > 0, 'a ping follows the first text delta');
        t.ok(ping < response.payload.indexOf('event: response.completed'), 'and comes before the rest of the answer');
      } else {
        t.ok(response.payload.startsWith('event: response.created'), 'nothing, not even a ping, comes before the first event');
        t.equal(ping, -1, 'and the answer that follows at once needs none');
      }
      t.equal(eventTypes(response.payload).at(-1), 'response.completed', 'the stream is whole');
      const numbers = sseData(response.payload).map((data) => JSON.parse(data).sequence_number);
      t.strictSame(numbers, numbers.map((_, index) => index), 'the events are numbered from 0 without a gap');
    });
  }
});

t.test('one SSE event of several megabytes passes through whole with the default streaming.max_event_bytes', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t);
  const image = randomBytes(2_400_000).toString('base64');
  t.ok(image.length > 3_000_000, `the event carries ${image.length} characters of base64`);
  const frame = (candidate: Record<string, unknown>, usage = '') => `data: {"candidates": [${JSON.stringify(candidate)}]${usage}}\r\n\r\n`;
  const usage = ',"usageMetadata": {"promptTokenCount": 4,"candidatesTokenCount": 1290,"totalTokenCount": 1294}';
  const frames = [
    frame({ content: { parts: [{ text: 'Here it is.' }], role: 'model' }, index: 0 }),
    frame({ content: { parts: [{ inlineData: { mimeType: 'image/png', data: image } }], role: 'model' }, index: 0 }),
    frame({ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }, usage),
  ];

  t.test('on the native stream, byte for byte', async (t) => {
    fake.next({ rawSse: frames });
    const response = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('draw'));
    t.equal(response.statusCode, 200);
    t.equal(response.payload, frames.join(''), 'every frame arrives as the upstream sent it');
  });

  t.test('on the chat stream, as a markdown data URI', async (t) => {
    fake.next({ rawSse: frames });
    const response = await postChat(gateway, token, chatBody('draw', { stream: true }));
    t.equal(response.statusCode, 200);
    t.ok(streamedText(response.payload).includes(`(data:image/png;base64,${image})`), 'the whole image is in the answer');
    t.equal(sseData(response.payload).at(-1), '[DONE]');
  });
});

t.test('a chunk reaches the client while the upstream is still silent: nothing waits for the whole stream', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t, {}, { streaming: { keepalive_ms: 100 } });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  fake.next({ stallAfterChunks: 1, stallMs: 3000 });
  const started = Date.now();
  const seen = await new Promise<{ data: number; ping: number }>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { ...token.bearer, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        const times = { data: 0, ping: 0 };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (times.data === 0 && text.includes('data:')) times.data = Date.now() - started;
          if (times.ping === 0 && text.includes(': ping')) times.ping = Date.now() - started;
          if (times.data > 0 && times.ping > 0) {
            request.destroy();
            resolve(times);
          }
        });
        response.on('error', () => {});
      },
    );
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify(chatBody('live stream', { stream: true })));
  });
  t.ok(seen.data < 1500, `the first chunk arrived after ${seen.data} ms, long before the upstream's stall ended`);
  t.ok(seen.ping < 1500, `a ping arrived after ${seen.ping} ms`);
});

t.test('an upstream failure after content ends the stream with an in-band error event', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t);

  t.test('a connection reset', async (t) => {
    fake.next({ resetAfterChunks: 2 });
    const response = await postChat(gateway, token, chatBody('one two three four five', { stream: true }));
    t.equal(response.statusCode, 200, 'the stream had started');
    t.equal(streamedText(response.payload), 'echo: one', 'what arrived before the failure is kept');
    assertInBandError(t, response.payload, 'upstream_connection_lost');
  });

  t.test('a stream that ends cleanly in the middle of an event', async (t) => {
    fake.next({ truncateSse: true });
    const response = await postChat(gateway, token, chatBody('one two three', { stream: true }));
    t.equal(response.statusCode, 200);
    t.equal(streamedText(response.payload), 'echo: one two');
    assertInBandError(t, response.payload, 'upstream_invalid_response');
  });

  t.test('a stream that ends cleanly before the answer is finished', async (t) => {
    const unfinished = (text: string) =>
      `data: {"candidates": [{"content": {"parts": [{"text": "${text}"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 3,"candidatesTokenCount": 1,"totalTokenCount": 4}}\r\n\r\n`;
    fake.next({ rawSse: [unfinished('never'), unfinished(' finished')] });
    const response = await postChat(gateway, token, chatBody('unfinished', { stream: true }));
    t.equal(response.statusCode, 200);
    t.equal(streamedText(response.payload), 'never finished');
    assertInBandError(t, response.payload, 'upstream_stream_truncated');
  });

  t.test('an error event after content', async (t) => {
    fake.next({
      rawSse: [
        'data: {"candidates": [{"content": {"parts": [{"text": "partial"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 3,"candidatesTokenCount": 1,"totalTokenCount": 4}}\r\n\r\n',
        'data: {"error": {"code": 503,"message": "The model is overloaded.","status": "UNAVAILABLE"}}\r\n\r\n',
      ],
    });
    const response = await postChat(gateway, token, chatBody('partial', { stream: true }));
    t.equal(streamedText(response.payload), 'partial');
    const last = assertInBandError(t, response.payload, 'upstream_error');
    t.match(last.error.message, /overloaded/);
  });

  t.test('on the native stream, in the native shape', async (t) => {
    fake.next({ resetAfterChunks: 2 });
    const response = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('one two three four'));
    t.equal(response.statusCode, 200);
    const events = sseData(response.payload).map((data) => JSON.parse(data));
    t.equal(events.length, 3, 'two forwarded events, then the error');
    t.match(events.at(-1), { error: { code: 502, message: String, status: 'INTERNAL' } });
    t.ok(response.payload.endsWith('\r\n\r\n'), 'framed like every other native event');
  });

  t.test('on the native JSON-array stream, as its last element', async (t) => {
    fake.next({ resetAfterChunks: 2 });
    const response = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent', nativeBody('one two three four'));
    t.equal(response.statusCode, 200);
    const elements = JSON.parse(response.payload) as Array<Record<string, any>>;
    t.equal(elements.length, 3, 'two forwarded elements, then the error, in one well-formed array');
    t.match(elements.at(-1), { error: { code: 502, message: String, status: 'INTERNAL' } });
  });
});

t.test("a stream that goes silent for longer than the channel's idle_ms ends with an in-band timeout", async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t, { timeouts: { idle_ms: 200 } });
  fake.next({ stallAfterChunks: 2 });
  const response = await postChat(gateway, token, chatBody('one two three four', { stream: true }));
  t.equal(response.statusCode, 200);
  t.equal(streamedText(response.payload), 'echo: one');
  const last = assertInBandError(t, response.payload, 'upstream_timeout');
  t.match(last.error.message, /silent for 200 ms/);
});

t.test("a stream that outlasts the channel's total_ms ends with an in-band timeout", async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t, { timeouts: { total_ms: 600 } });
  fake.next({ chunkDelayMs: 150 });
  const response = await postChat(gateway, token, chatBody('a b c d e f g h i j k l', { stream: true }));
  t.equal(response.statusCode, 200);
  const text = streamedText(response.payload);
  t.ok(text.startsWith('echo:') && text.length < 'echo: a b c d e f g h i j k l'.length, 'part of the answer arrived');
  const last = assertInBandError(t, response.payload, 'upstream_timeout');
  t.match(last.error.message, /within 600 ms/);
});

t.test('an upstream event larger than streaming.max_event_bytes is a clean error', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t, {}, { streaming: { max_event_bytes: 1024 } });

  t.test('after content: in-band', async (t) => {
    // One event per write, so the large one never shares a read with the content before it.
    fake.next({ chunkDelayMs: 50 });
    const response = await postChat(gateway, token, chatBody(`short ${'x'.repeat(2000)}`, { stream: true }));
    t.equal(response.statusCode, 200);
    t.equal(streamedText(response.payload), 'echo: short', 'the events before the large one arrived');
    assertInBandError(t, response.payload, 'upstream_event_too_large');
  });

  t.test('before any content: an error response', async (t) => {
    fake.next({ rawSse: `data: {"candidates": [{"content": {"parts": [{"text": "${'y'.repeat(2000)}"}],"role": "model"},"index": 0}]}\r\n\r\n` });
    const response = await postChat(gateway, token, chatBody('big', { stream: true }));
    t.equal(response.statusCode, 502);
    t.match(response.json(), { error: { code: 'upstream_event_too_large', type: 'server_error', message: /1024 bytes/ } });
  });

  t.test('the gateway still answers afterwards', async (t) => {
    const response = await postChat(gateway, token, chatBody('small', { stream: true }));
    t.equal(streamedText(response.payload), 'echo: small');
  });
});

t.test('streams ended by the shutdown deadline get an error event in their own shape and are billed for what was sent', async (t) => {
  const { fake, gateway, token } = await gatewayWithChannel(t);
  const inFlight = gateway.app.gateway.resolve(InFlightRequests);
  fake.next({ chunkDelayMs: 300 });
  fake.next({ chunkDelayMs: 300 });
  const chat = postChat(gateway, token, chatBody('a b c d e f g h i j k l', { stream: true }));
  const native = postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('a b c d e f g h i j k l'));
  while (inFlight.size.streams < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 400));
  await inFlight.endAll(shuttingDown(), 1000);
  t.same(inFlight.size, { requests: 0, streams: 0 }, 'no stream is left open');

  const chatAnswer = await chat;
  t.ok(streamedText(chatAnswer.payload).startsWith('echo: a'), 'the chat client kept what it had been sent');
  assertInBandError(t, chatAnswer.payload, 'server_shutting_down');
  const nativeEvents = sseData((await native).payload).map((data) => JSON.parse(data));
  t.ok(nativeEvents.length >= 2, 'the native client kept its events');
  t.match(nativeEvents.at(-1), { error: { code: 503, message: /shutting down/, status: 'UNAVAILABLE' } }, 'and its last one is a native error');

  const stored = await waitForToken(gateway, token, (current) => current.used_quota > 0);
  t.ok(stored.used_quota > 0, `what was sent is billed (${stored.used_quota} units)`);
});
