import t, { type Test } from 'tap';
import { UsageLog } from '../../core/usage/usage-log.js';
import { UserService } from '../../core/users/user-service.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import {
  chatBody,
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
  storedToken,
  waitForToken,
  type IssuedToken,
} from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

const openAiKey = 'gp-upstream-key';
// In quota units (500,000 per USD): gx-2.5-pro 1 a prompt token and 4 an output token; gp-nano 1 and 2.
const pricing = {
  'gx-2.5-pro': { input_per_mtok: 2, output_per_mtok: 8 },
  'gp-nano': { input_per_mtok: 2, output_per_mtok: 4 },
};
const unitsOf = (price: { input_per_mtok: number; output_per_mtok: number }, usage: { prompt_tokens: number; completion_tokens: number }) =>
  Math.ceil((usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) / 2);

/** gx-2.5-pro on a fake gx upstream, falling back to gp-nano on a fake OpenAI upstream; `fallbacks_on` as given. */
async function refusalGateway(t: Test, fallbacksOn: string[] | 'unset' = ['content_filter']) {
  const gx = await startGx(t);
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const gateway = await scenarioGateway(t, {
    pricing,
    fallbacks: { 'gx-2.5-pro': ['gp-nano'] },
    ...(fallbacksOn === 'unset' ? {} : { fallbacks_on: fallbacksOn }),
    providers: [
      gxChannel('gx-main', gx.url),
      { name: 'gp-main', plugin: 'gp', base_url: openAi.url, api_key: openAiKey, models: ['gp-nano'], model_map: { 'gp-nano': 'gpt-4.1-nano' }, groups: ['default'] },
    ],
  });
  const admin = (await gateway.app.gateway.resolve(UserService).create('refusal-admin', 'admin')).loginToken;
  return { gx, openAi, gateway, admin };
}

/** The newest usage records, as an admin sees them (attempts included), once the log has written them all. */
async function newestRecords(gateway: TestApp, admin: string, count: number): Promise<any[]> {
  const until = Date.now() + 3000;
  for (;;) {
    await gateway.app.gateway.resolve(UsageLog).flush();
    const items = (await gateway.asUser(admin, { method: 'GET', url: `/api/log/?size=${count}` })).json().data.items as any[];
    if (items.length >= count || Date.now() > until) return items;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const streamedChunks = (body: string) =>
  sseData(body)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as { model: string; choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: { prompt_tokens: number; completion_tokens: number } | null });

const postMessages = (gateway: TestApp, token: IssuedToken, payload: Record<string, unknown>) =>
  gateway.app.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: { 'x-api-key': `sk-${token.key}`, 'anthropic-version': '2023-06-01' },
    payload: { model: 'gx-2.5-pro', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }], ...payload },
  });

t.test('a gx answer stopped for safety before any content is served by the next fallback model, billed at its price', async (t) => {
  const { gx, openAi, gateway, admin } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  const answer = await postChat(gateway, token, chatBody('hello'));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(gx.requests.length, 1, 'the gx model refused once');
  t.equal(openAi.requests.length, 1, 'the gp model was asked next');
  const body = answer.json();
  t.equal(body.model, 'gpt-4.1-nano', "the answer names the model that served (gp's chat answer passes through as the upstream wrote it)");
  t.equal(body.choices[0].message.content, 'echo: hello');
  t.equal(body.choices[0].finish_reason, 'stop');
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gp-nano'], body.usage), "billed at gp-nano's price for gp-nano's usage, nothing for the refusal");

  t.same(lastAttempts(gateway), ['gx-main:refused', 'gp-main:success'], 'the log line shows the refused attempt, then the one that served');
  t.match(lastRequestRecord(gateway)?.attempts[0], { channel: 'gx-main', code: 'content_filtered' }, 'with the reason the next model was tried');
  const [record] = await newestRecords(gateway, admin, 1);
  t.match(record, { model_name: 'gx-2.5-pro', upstream_model: 'gpt-4.1-nano', channel: 'gp-main', status: 200, error_code: '', quota: unitsOf(pricing['gp-nano'], body.usage) });
  t.match(record.attempts, [
    { channel: 'gx-main', outcome: 'refused', code: 'content_filtered' },
    { channel: 'gp-main', outcome: 'success' },
  ]);
});

t.test('a gx stream that stops for safety before any content is served by the next fallback model before the first byte, billed exactly', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'PROHIBITED_CONTENT' });
  const answer = await postChat(gateway, token, chatBody('hello', { stream: true, stream_options: { include_usage: true } }));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(openAi.requests.length, 1);
  const chunks = streamedChunks(answer.body);
  t.notOk(
    chunks.some((chunk) => chunk.choices.some((choice) => choice.finish_reason === 'content_filter')),
    'nothing of the refusal reached the client',
  );
  t.ok(chunks.every((chunk) => chunk.model === 'gpt-4.1-nano'), 'every chunk is the gp model\'s');
  t.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'echo: hello');
  const usage = chunks.at(-1)?.usage;
  t.ok(usage, 'the usage chunk the client asked for');
  const stored = await waitForToken(gateway, token, (token) => token.used_quota > 0);
  t.equal(stored.used_quota, unitsOf(pricing['gp-nano'], usage!), "billed at gp-nano's price for what gp-nano reported");
  t.same(lastAttempts(gateway), ['gx-main:refused', 'gp-main:success']);
});

t.test('a Messages request, translated for both families, falls back on a refusal, as JSON and as a stream', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  const whole = await postMessages(gateway, token, {});
  t.equal(whole.statusCode, 200, whole.body);
  t.match(whole.json(), { type: 'message', model: 'gp-nano', stop_reason: 'end_turn', content: [{ type: 'text', text: 'echo: hello' }] });

  gx.next({ stopForSafety: 'SAFETY' });
  const streamed = await postMessages(gateway, token, { stream: true });
  t.equal(streamed.statusCode, 200, streamed.body);
  const events = sseData(streamed.body).map((data) => JSON.parse(data) as { type: string; message?: { model: string }; delta?: { text?: string; stop_reason?: string } });
  t.equal(events[0]?.message?.model, 'gp-nano', 'the stream starts as the gp model\'s');
  t.equal(events.filter((event) => event.type === 'content_block_delta').map((event) => event.delta?.text).join(''), 'echo: hello');
  t.equal(events.find((event) => event.type === 'message_delta')?.delta?.stop_reason, 'end_turn');
  t.equal(openAi.requests.length, 2);
});

const postResponses = (gateway: TestApp, token: IssuedToken, payload: Record<string, unknown>) =>
  gateway.app.inject({ method: 'POST', url: '/v1/responses', headers: token.bearer, payload: { model: 'gx-2.5-pro', input: 'hello', ...payload } });

const responsesEvents = (body: string) => sseData(body).map((data) => JSON.parse(data) as { type: string; delta?: string; response?: { model: string; status: string; incomplete_details?: { reason: string } | null } });

t.test('a Responses request, translated for gx, falls back on its refusal to the gp model speaking Responses itself; a kept refusal still goes out translated', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  const streamed = await postResponses(gateway, token, { stream: true });
  t.equal(streamed.statusCode, 200, streamed.body);
  const events = responsesEvents(streamed.body);
  t.equal(openAi.requests.at(-1)?.path, '/v1/responses', "the gp model's own Responses route");
  t.equal(events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join(''), 'echo: hello');
  t.equal(events.at(-1)?.type, 'response.completed');

  gx.next({ stopForSafety: 'SAFETY' });
  openAi.next({ error: 503 });
  const kept = await postResponses(gateway, token, { stream: true });
  t.equal(kept.statusCode, 200, kept.body);
  const refusal = responsesEvents(kept.body);
  t.equal(refusal[0]?.type, 'response.created');
  t.match(refusal.at(-1), { type: 'response.incomplete', response: { model: 'gx-2.5-pro', status: 'incomplete', incomplete_details: { reason: 'content_filter' } } }, "gx's refusal, in the client's format");
  t.same(lastAttempts(gateway), ['gp-main:failed', 'gx-main:success']);
});

t.test('a native generate answer refused by gx is served by the gp fallback in the native format', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  const answer = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('hello'));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(openAi.requests.length, 1);
  t.match(answer.json(), { candidates: [{ content: { parts: [{ text: 'echo: hello' }] }, finishReason: 'STOP' }] });

  gx.next({ stopForSafety: 'SAFETY' });
  const streamed = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('hello'));
  t.equal(streamed.statusCode, 200, streamed.body);
  const frames = sseData(streamed.body).map((data) => JSON.parse(data) as { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }> });
  t.notOk(frames.some((frame) => frame.candidates?.some((candidate) => candidate.finishReason === 'SAFETY')), 'nothing of the refusal reached the client');
  t.equal(frames.flatMap((frame) => frame.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join(''), 'echo: hello');
  t.equal(openAi.requests.length, 2);
});

t.test("a gp refusal moves a request's models list on to gx, JSON and stream", async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  openAi.next({ contentFilter: true });
  const answer = await postChat(gateway, token, { models: ['gp-nano', 'gx-2.5-pro'], messages: [{ role: 'user', content: 'hello' }] });
  t.equal(answer.statusCode, 200, answer.body);
  t.match(answer.json(), { model: 'gx-2.5-pro', choices: [{ message: { content: 'echo: hello' }, finish_reason: 'stop' }] });
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gx-2.5-pro'], answer.json().usage), "billed at gx-2.5-pro's price");

  openAi.next({ contentFilter: true });
  const streamed = await postChat(gateway, token, { models: ['gp-nano', 'gx-2.5-pro'], messages: [{ role: 'user', content: 'hello' }], stream: true });
  const chunks = streamedChunks(streamed.body);
  t.ok(chunks.every((chunk) => chunk.model === 'gx-2.5-pro'), 'the stream is the gx model\'s');
  t.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'echo: hello');
  t.equal(gx.requests.length, 2);
  t.same(lastAttempts(gateway), ['gp-main:refused', 'gx-main:success']);
});

t.test('a blocked prompt falls back too, and is the answer when the fallback fails', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ blockPrompt: 'SAFETY' });
  const served = await postChat(gateway, token, chatBody('hello'));
  t.equal(served.statusCode, 200, served.body);
  t.equal(served.json().model, 'gpt-4.1-nano');

  gx.next({ blockPrompt: 'SAFETY' });
  openAi.next({ error: 503 });
  const refused = await postChat(gateway, token, chatBody('hello'));
  t.equal(refused.statusCode, 400, 'the blocked prompt, as without fallbacks');
  t.equal(refused.json().error.code, 'prompt_blocked');
  t.equal(openAi.requests.length, 2);
});

t.test('without fallbacks_on a refusal is answered as before, and billed at the refusing model for what it reported', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t, 'unset');
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  const answer = await postChat(gateway, token, chatBody('hello'));
  t.equal(answer.statusCode, 200, answer.body);
  const body = answer.json();
  t.match(body, { model: 'gx-2.5-pro', choices: [{ message: { content: '' }, finish_reason: 'content_filter' }] });
  t.equal(body.usage.completion_tokens, 0);
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gx-2.5-pro'], body.usage), "billed at gx-2.5-pro's price for the prompt it reported");

  gx.next({ stopForSafety: 'SAFETY' });
  const streamed = await postChat(gateway, token, chatBody('hello', { stream: true }));
  t.equal(streamed.statusCode, 200);
  const chunks = streamedChunks(streamed.body);
  t.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'content_filter', 'the stream ends with the refusal');
  t.ok(chunks.every((chunk) => chunk.model === 'gx-2.5-pro'));
  t.equal(openAi.requests.length, 0, 'no fallback was tried');
  t.same(lastAttempts(gateway), ['gx-main:success']);
});

t.test('a stream that stops for safety after content has streamed is not retried', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  const usageMetadata = { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 };
  gx.next({
    chunks: [
      { candidates: [{ content: { parts: [{ text: 'Once' }], role: 'model' }, index: 0 }], usageMetadata, modelVersion: 'gx-2.5-pro', responseId: 'cut-1' },
      { candidates: [{ content: { role: 'model' }, finishReason: 'SAFETY', index: 0 }], usageMetadata, modelVersion: 'gx-2.5-pro', responseId: 'cut-1' },
    ],
  });
  const answer = await postChat(gateway, token, chatBody('hello', { stream: true }));
  t.equal(answer.statusCode, 200);
  const chunks = streamedChunks(answer.body);
  t.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'Once', 'the text sent stands');
  t.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'content_filter');
  t.equal(openAi.requests.length, 0, 'no fallback after content');
  const stored = await waitForToken(gateway, token, (token) => token.used_quota > 0);
  t.equal(stored.used_quota, unitsOf(pricing['gx-2.5-pro'], { prompt_tokens: 2, completion_tokens: 1 }));
});

t.test('a refusal is the answer when every fallback fails, billed at the refusing model, JSON and stream', async (t) => {
  const { gx, openAi, gateway, admin } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  openAi.next({ error: 503 });
  const answer = await postChat(gateway, token, chatBody('hello'));
  t.equal(answer.statusCode, 200, 'the refusal, not the fallback\'s error');
  const body = answer.json();
  t.match(body, { model: 'gx-2.5-pro', choices: [{ finish_reason: 'content_filter' }] });
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gx-2.5-pro'], body.usage), "billed at gx-2.5-pro's price, as without fallbacks");
  t.same(lastAttempts(gateway), ['gp-main:failed', 'gx-main:success'], 'the refusing attempt served, recorded last');
  const [record] = await newestRecords(gateway, admin, 1);
  t.match(record, { channel: 'gx-main', upstream_model: 'gx-2.5-pro', status: 200, error_code: '' });

  const before = (await storedToken(gateway, token)).used_quota;
  gx.next({ stopForSafety: 'SAFETY' });
  openAi.next({ error: 503 });
  const streamed = await postChat(gateway, token, chatBody('hello', { stream: true, stream_options: { include_usage: true } }));
  t.equal(streamed.statusCode, 200);
  const chunks = streamedChunks(streamed.body);
  t.ok(chunks.length > 0 && chunks.every((chunk) => chunk.model === 'gx-2.5-pro'), 'the kept refusal stream is sent');
  t.equal(chunks.find((chunk) => chunk.choices.length > 0 && chunk.choices[0]!.finish_reason !== null)?.choices[0]?.finish_reason, 'content_filter');
  const usage = chunks.at(-1)?.usage;
  t.ok(usage);
  const stored = await waitForToken(gateway, token, (token) => token.used_quota > before);
  t.equal(stored.used_quota - before, unitsOf(pricing['gx-2.5-pro'], usage!));
});

t.test('a chain refused throughout ends as without fallbacks: the last model\'s refusal, billed at its price', async (t) => {
  const { gx, openAi, gateway } = await refusalGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ stopForSafety: 'SAFETY' });
  openAi.next({ contentFilter: true });
  const answer = await postChat(gateway, token, chatBody('hello'));
  t.equal(answer.statusCode, 200, answer.body);
  const body = answer.json();
  t.match(body, { choices: [{ message: { content: null }, finish_reason: 'content_filter' }] });
  t.equal(body.usage.completion_tokens, 0);
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gp-nano'], body.usage), "billed once, at gp-nano's price for its refusal");
  t.same(lastAttempts(gateway), ['gx-main:refused', 'gp-main:success']);

  gx.next({ stopForSafety: 'SAFETY' });
  openAi.next({ contentFilter: true });
  const streamed = await postChat(gateway, token, chatBody('hello', { stream: true }));
  const chunks = streamedChunks(streamed.body);
  t.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'content_filter', "the gp model's refusal stream");
  t.ok(chunks.every((chunk) => chunk.model === 'gpt-4.1-nano'));
});

t.test('fallbacks_on takes only content_filter', async (t) => {
  const failure = await refusalGateway(t, ['timeout']).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(failure, { issues: [{ path: ['fallbacks_on', 0], message: /^expected content_filter/ }] });
});
