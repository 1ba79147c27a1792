import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream, type OpenAiUsage } from '../fakes/openai/fake-openai-upstream.js';
import {
  issueToken,
  lastAttempts,
  postChat,
  scenarioGateway,
  scenarioPricing,
  sseData,
  storedToken,
  streamedText,
  waitForToken,
} from '../helpers/gateway-scenario.js';

// gp models cost 2 USD per million input tokens and 8 per million output tokens: at 500000
// quota units per USD an input token is 1 unit and an output token 4, so costs are exact.
const pricing = { ...scenarioPricing, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };
const unitsFor = (usage: { prompt_tokens: number; completion_tokens: number }) => usage.prompt_tokens + usage.completion_tokens * 4;

const upstreamKey = 'gp-upstream-key';
const fixture = (name: string) => readFileSync(new URL(`../fixtures/gp/${name}`, import.meta.url), 'utf8');

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

function gpChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    plugin: 'gp',
    base_url: baseUrl,
    api_key: upstreamKey,
    models: ['gp-nano'],
    model_map: { 'gp-nano': 'gpt-4.1-nano' },
    groups: ['default'],
    ...fields,
  };
}

const gpBody = (text: string, fields: Record<string, unknown> = {}) => ({ model: 'gp-nano', messages: [{ role: 'user', content: text }], ...fields });

function usageOf(prompt: number, completion: number): OpenAiUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

t.test('chat completions for gp models pass through to an OpenAI-format upstream', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [gpChannel('gp-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const lastSent = () => fake.requests.at(-1)!;

  t.test('a non-stream answer is passed on byte for byte and its usage is billed', async (t) => {
    const recorded = fixture('openai-chat-completion-nonstream.json');
    fake.next({ status: 200, body: recorded });
    const before = await storedToken(gateway, token);
    const response = await postChat(gateway, token, gpBody('invent a holiday'));
    t.equal(response.statusCode, 200);
    t.equal(response.payload, recorded, 'the exact upstream bytes');
    t.match(response.headers['content-type'], /application\/json/);

    const sent = lastSent();
    t.equal(sent.path, '/v1/chat/completions');
    t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`, "the channel's key as a Bearer token");
    t.strictSame(sent.json, { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'invent a holiday' }] }, 'the mapped model, nothing added');

    const after = await storedToken(gateway, token);
    t.equal(after.used_quota - before.used_quota, unitsFor({ prompt_tokens: 16, completion_tokens: 363 }), 'billed from the recorded usage');
  });

  t.test('unknown fields reach the upstream untouched', async (t) => {
    const extras = {
      temperature: 0.3,
      prediction: { type: 'content', content: 'draft' },
      metadata: { ticket: '42' },
      service_tier: 'flex',
      messages: [{ role: 'user', content: 'hi', name: 'ann', custom_note: { keep: true } }],
    };
    const response = await postChat(gateway, token, gpBody('ignored', extras));
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent().json, { model: 'gpt-4.1-nano', ...extras });
    t.equal(response.json().choices[0].message.content, 'echo: hi');
  });

  t.test('a stream where the client did not ask for usage loses the usage chunk, but billing used it', async (t) => {
    const usage = usageOf(120, 30);
    fake.next({ usage });
    const before = await storedToken(gateway, token);
    const response = await postChat(gateway, token, gpBody('count to three', { stream: true }));
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent().json, { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'count to three' }], stream: true, stream_options: { include_usage: true } });

    const data = sseData(response.payload);
    t.equal(data.at(-1), '[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as { choices: unknown[]; usage?: unknown });
    t.ok(chunks.length > 0);
    t.ok(chunks.every((chunk) => chunk.choices.length > 0 && (chunk.usage === undefined || chunk.usage === null)), 'no usage chunk reaches the client');
    t.equal(streamedText(response.payload), 'echo: count to three');

    const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
    t.equal(after.used_quota - before.used_quota, unitsFor(usage), 'billed from the stripped usage chunk');
  });

  t.test('a stream where the client asked for usage keeps the usage chunk as the upstream sent it', async (t) => {
    const recorded = fixture('openai-chat-stream-include-usage.sse');
    fake.next({ rawSse: recorded });
    const before = await storedToken(gateway, token);
    const response = await postChat(gateway, token, gpBody('invent a holiday', { stream: true, stream_options: { include_usage: true } }));
    t.equal(response.statusCode, 200);
    t.strictSame(sseData(response.payload), sseData(recorded), 'every chunk as recorded, the usage chunk and [DONE] included');
    const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
    t.equal(after.used_quota - before.used_quota, unitsFor({ prompt_tokens: 16, completion_tokens: 300 }));
  });

  t.test('the recorded include_usage stream, for a client that did not ask, arrives without its usage chunk', async (t) => {
    const recorded = fixture('openai-chat-stream-include-usage.sse');
    fake.next({ rawSse: recorded });
    const response = await postChat(gateway, token, gpBody('invent a holiday', { stream: true }));
    t.strictSame(
      sseData(response.payload),
      sseData(recorded).filter((data) => !data.includes('"choices":[]')),
    );
  });

  t.test('an upstream 400 is passed back in the OpenAI shape, not retried', async (t) => {
    const sentBefore = fake.requests.length;
    fake.next({ error: 400, message: "Unsupported parameter: 'logit_bias' is not supported with this model." });
    const response = await postChat(gateway, token, gpBody('bad', { logit_bias: { 1: 5 } }));
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: /Unsupported parameter: 'logit_bias'/, type: String, code: 'upstream_invalid_request' } });
    t.equal(fake.requests.length, sentBefore + 1, 'asked once');
  });

  t.test('an in-band error before any content fails the request', async (t) => {
    fake.next({ sseErrorBeforeContent: 400, message: 'the prompt is not acceptable' });
    const response = await postChat(gateway, token, gpBody('bad', { stream: true }));
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: /the prompt is not acceptable/ } });
  });
});

t.test('an upstream 429 moves the request to the next gp channel', async (t) => {
  const first = await startOpenAi(t);
  const second = await startOpenAi(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } },
    providers: [gpChannel('gp-first', first.url, { priority: 10 }), gpChannel('gp-second', second.url, { priority: 0 })],
  });
  const token = await issueToken(t, gateway);
  for (const stream of [false, true]) {
    t.test(stream ? 'streamed' : 'not streamed', async (t) => {
      const before = { first: first.requests.length, second: second.requests.length };
      first.next({ error: 429 });
      const response = await postChat(gateway, token, gpBody('retry me', { stream }));
      t.equal(response.statusCode, 200);
      if (stream) t.equal(streamedText(response.payload), 'echo: retry me');
      else t.equal(response.json().choices[0].message.content, 'echo: retry me');
      t.equal(first.requests.length, before.first + 1, 'the first channel was tried once');
      t.equal(second.requests.length, before.second + 1, 'the second channel answered');
      t.strictSame(lastAttempts(gateway).map((attempt) => attempt.split(':')[0]), ['gp-first', 'gp-second']);
    });
  }
});
