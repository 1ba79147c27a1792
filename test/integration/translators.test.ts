import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream, type ResponsesUsage } from '../fakes/openai/fake-openai-upstream.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, lastRequestRecord, postChat, scenarioPricing, sseData, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// A chat client served by a family whose provider implements only the Responses API, through
// the example translator, loaded from the config as an operator loads a third party's. The
// family is the gp plugin with its chat operation left out (test/fixtures/plugins), on the fake
// OpenAI upstream: what reaches it is a Responses request, what the client gets is chat.

const configFile = fileURLToPath(new URL('../../gateway.yaml', import.meta.url));
const translator = './examples/chat-over-responses-translator/index.ts';
const responsesOnly = './test/fixtures/plugins/responses-only-provider.ts';
const upstreamKey = 'gp-upstream-key';
// 2 USD per million input tokens and 8 per million output: 1 quota unit an input token, 4 an output token.
const pricing = { ...scenarioPricing, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

const channel = (name: string, plugin: string, baseUrl: string, priority = 0) => ({ name, plugin, base_url: baseUrl, api_key: upstreamKey, models: ['gp-nano'], priority });

async function translatingGateway(t: Test, providers: unknown[], translators: unknown = [translator]): Promise<{ gateway: TestApp; token: IssuedToken }> {
  const gateway = await buildTestApp(t, 'memory', { pricing, providers, translators }, { configFile });
  return { gateway, token: await issueToken(t, gateway) };
}

const usage = (input: number, cached: number, output: number, reasoning: number): ResponsesUsage => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: cached },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
});
const question = (text: string, fields: Record<string, unknown> = {}) => ({ model: 'gp-nano', messages: [{ role: 'user', content: text }], ...fields });
const usedUnits = async (gateway: TestApp, token: IssuedToken, before: number) => (await waitForToken(gateway, token, (stored) => stored.used_quota > before)).used_quota - before;

t.test('a chat request to a family that speaks only Responses is answered as a chat completion, billed by the served usage exactly', async (t) => {
  const fake = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)]);
  const before = (await storedToken(gateway, token)).used_quota;
  fake.next({ usage: usage(1200, 200, 300, 100) });

  const response = await postChat(gateway, token, question('hello there'));
  t.equal(response.statusCode, 200);
  t.match(response.json(), {
    object: 'chat.completion',
    model: 'gp-nano',
    choices: [{ index: 0, message: { role: 'assistant', content: 'echo: hello there' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 100 } },
  });
  t.match(fake.requests.at(-1), { path: '/v1/responses', json: { model: 'gp-nano', input: [{ type: 'message', role: 'user', content: 'hello there' }], store: false } }, 'the upstream was asked in the Responses format');
  t.equal(await usedUnits(gateway, token, before), 1200 + 300 * 4, 'every input token at 1 unit, every output token at 4');
  t.match(lastRequestRecord(gateway), { operation: 'chat', translator: 'chat-over-responses', attempts: [{ channel: 'responses-only', outcome: 'success', translator: 'chat-over-responses' }], input_tokens: 1200, output_tokens: 300 });
  const metrics = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
  t.match(metrics, /^gateway_translated_requests_total\{operation="chat",translator="chat-over-responses"\} 1$/m, 'the metrics count it by its translator');
});

t.test('a streamed chat request is translated event by event: text in order, finish, the usage chunk asked for, [DONE]', async (t) => {
  const fake = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)]);
  const before = (await storedToken(gateway, token)).used_quota;
  fake.next({ usage: usage(40, 0, 9, 0) });

  const response = await postChat(gateway, token, question('stream me', { stream: true, stream_options: { include_usage: true } }));
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /text\/event-stream/);
  const events = sseData(response.body);
  t.equal(events.at(-1), '[DONE]');
  const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as { object: string; choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: unknown });
  t.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk'), 'every event is a chat chunk');
  t.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'echo: stream me');
  t.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
  t.match(chunks.at(-1), { choices: [], usage: { prompt_tokens: 40, completion_tokens: 9 } });
  t.match(fake.requests.at(-1), { path: '/v1/responses', json: { stream: true } });
  t.equal(await usedUnits(gateway, token, before), 40 + 9 * 4);
  t.match(lastRequestRecord(gateway), { translator: 'chat-over-responses', end: 'completed', usage_source: 'upstream' });
});

t.test('a failing translated channel fails over to one that implements chat, and a failing native one to the translated', async (t) => {
  const translated = await startOpenAi(t);
  const native = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('responses-only', responsesOnly, translated.url, 1), channel('gp-native', 'gp', native.url, 0)]);

  translated.next({ error: 503 });
  const served = await postChat(gateway, token, question('first'));
  t.equal(served.statusCode, 200);
  t.equal(served.json().choices[0].message.content, 'echo: first');
  t.strictSame(lastAttempts(gateway), ['responses-only:failed', 'gp-native:success']);
  t.match(lastRequestRecord(gateway), { attempts: [{ translator: 'chat-over-responses' }, { translator: undefined }] });
  t.notOk('translator' in (lastRequestRecord(gateway) ?? {}), 'the answer came from a provider serving chat itself: no translator is named');
  t.match(native.requests.at(-1), { path: '/v1/chat/completions' });

  translated.next({ error: 503 });
  const streamed = await postChat(gateway, token, question('second', { stream: true }));
  t.equal(streamed.statusCode, 200);
  t.equal(lastAttempts(gateway).join(' '), 'responses-only:failed gp-native:success', 'a stream fails over before its first byte as well');

  // Priorities reversed: the native channel fails, the translated one answers.
  const reversed = await translatingGateway(t, [channel('gp-native', 'gp', native.url, 1), channel('responses-only', responsesOnly, translated.url, 0)]);
  native.next({ error: 500 });
  const rescued = await postChat(reversed.gateway, reversed.token, question('third'));
  t.equal(rescued.statusCode, 200);
  t.equal(rescued.json().choices[0].message.content, 'echo: third');
  t.strictSame(lastAttempts(reversed.gateway), ['gp-native:failed', 'responses-only:success']);
  t.equal(lastRequestRecord(reversed.gateway)?.translator, 'chat-over-responses');
});

t.test('/v1/models lists the chat route a translator opens on a Responses-only family, and only with the translator loaded', async (t) => {
  const fake = await startOpenAi(t);
  const routesOf = async (gateway: TestApp, token: IssuedToken) => (await gateway.app.inject({ method: 'GET', url: '/v1/models/gp-nano', headers: token.bearer })).json().routes;
  const translated = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)]);
  t.strictSame(await routesOf(translated.gateway, translated.token), ['POST /v1/chat/completions', 'POST /v1/responses']);
  const bare = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)], []);
  t.strictSame(await routesOf(bare.gateway, bare.token), ['POST /v1/responses']);
});

t.test('what the served format cannot say is a 400 in the chat route\'s dialect, before any upstream call or charge', async (t) => {
  const fake = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)]);
  const before = await storedToken(gateway, token);

  const response = await postChat(gateway, token, question('hi', { stop: ['\n\n'] }));
  t.equal(response.statusCode, 400);
  t.match(response.json(), { error: { type: 'invalid_request_error', code: 'invalid_request', param: 'stop', message: /^stop: the Responses API has no stop sequences/ } });
  t.equal(fake.requests.length, 0, 'the upstream was never called');
  t.equal((await storedToken(gateway, token)).remain_quota, before.remain_quota, 'nothing was reserved or charged');
});

t.test('a provider that implements chat is called directly: a translator never stands in front of its own operation', async (t) => {
  const fake = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('gp-native', 'gp', fake.url)]);
  const response = await postChat(gateway, token, question('direct'));
  t.equal(response.statusCode, 200);
  t.match(fake.requests.at(-1), { path: '/v1/chat/completions' });
  t.notOk('translator' in (lastRequestRecord(gateway) ?? {}));
});

t.test('without a translator for it, the Responses-only family serves no chat', async (t) => {
  const fake = await startOpenAi(t);
  const { gateway, token } = await translatingGateway(t, [channel('responses-only', responsesOnly, fake.url)], []);
  const response = await postChat(gateway, token, question('hi'));
  t.equal(response.statusCode, 404);
  t.equal(fake.requests.length, 0);
});

t.test('a translators entry that is not a translator fails the start, named by its YAML path', async (t) => {
  await t.rejects(
    buildTestApp(t, 'memory', { pricing, providers: [], translators: [translator, './test/fixtures/plugins/buggy-chat-provider.ts'] }, { configFile }),
    { name: 'ConfigError', problems: [{ path: 'translators[1]', message: /is not a translator: .*client must be an operation/ }] },
  );
  await t.rejects(buildTestApp(t, 'memory', { pricing, providers: [], translators: [translator, translator] }, { configFile }), {
    name: 'ConfigError',
    problems: [{ path: 'translators[1]', message: /is named "chat-over-responses", as translators\[0\] is/ }],
  });
});
