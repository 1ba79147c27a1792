import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, sseData, startGx, storedToken } from '../helpers/gateway-scenario.js';

const openAiKey = 'gp-upstream-key';
// In quota units (500,000 per USD): gx-2.5-pro 1 a prompt token and 4 an output token; gx-3-pro-preview 2 and 8; gp-nano 1 and 2.
const pricing = {
  'gx-2.5-pro': { input_per_mtok: 2, output_per_mtok: 8 },
  'gx-3-pro-preview': { input_per_mtok: 4, output_per_mtok: 16 },
  'gp-nano': { input_per_mtok: 2, output_per_mtok: 4 },
};
const unitsOf = (price: { input_per_mtok: number; output_per_mtok: number }, usage: { prompt_tokens: number; completion_tokens: number }) =>
  Math.ceil((usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) / 2);

async function fallbackGateway(t: Test, fallbacks: Record<string, string[]> = { 'gx-2.5-pro': ['gx-3-pro-preview', 'gp-nano'] }) {
  const gx = await startGx(t);
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const gateway = await scenarioGateway(t, {
    pricing,
    fallbacks,
    providers: [
      gxChannel('gx-main', gx.url, { models: ['gx-2.5-pro', 'gx-3-pro-preview'] }),
      { name: 'gp-main', plugin: 'gp', base_url: openAi.url, api_key: openAiKey, models: ['gp-nano'], model_map: { 'gp-nano': 'gpt-4.1-nano' }, groups: ['default'] },
    ],
  });
  return { gx, openAi, gateway };
}

t.test('a model whose channels fail is followed by the next model of the config fallbacks, billed at that model\'s price', async (t) => {
  const { gx, gateway } = await fallbackGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ error: 503 });
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'gx-2.5-pro' }));
  t.equal(answer.statusCode, 200, answer.body);
  t.same(gx.requests.map((request) => request.path), ['/v1beta/models/gx-2.5-pro:generateContent', '/v1beta/models/gx-3-pro-preview:generateContent']);
  t.equal(answer.json().model, 'gx-3-pro-preview', 'the answer names the model that served');
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gx-3-pro-preview'], answer.json().usage), "billed at gx-3-pro-preview's price");
});

t.test('a fallback crosses families: a gx request ends on a gp model, through the translators, in the client format', async (t) => {
  const { gx, openAi, gateway } = await fallbackGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ error: 503 });
  gx.next({ error: 500 });
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'gx-2.5-pro' }));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(openAi.requests.length, 1, 'the gp upstream answered');
  t.notOk('models' in JSON.parse(openAi.requests[0]?.raw.toString() ?? '{}'), 'nothing of the fallback reaches the upstream');
  t.equal((await storedToken(gateway, token)).used_quota, unitsOf(pricing['gp-nano'], answer.json().usage), "billed at gp-nano's price");

  gx.next({ error: 503 });
  gx.next({ error: 503 });
  const messages = await gateway.app.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: { 'x-api-key': `sk-${token.key}`, 'anthropic-version': '2023-06-01' },
    payload: { model: 'gx-2.5-pro', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] },
  });
  t.equal(messages.statusCode, 200, messages.body);
  const events = sseData(messages.body).map((data) => JSON.parse(data) as { type: string; message?: { model: string } });
  t.equal(events[0]?.type, 'message_start');
  t.equal(events[0]?.message?.model, 'gp-nano', 'a Messages stream from a gp model after the gx ones failed');
  t.equal(events.at(-1)?.type, 'message_stop');
});

t.test("the request's models list replaces the config's fallbacks, within the token's model limits", async (t) => {
  const { gx, openAi, gateway } = await fallbackGateway(t, {});
  const token = await issueToken(t, gateway);
  gx.next({ error: 429 });
  const answer = await postChat(gateway, token, { models: ['gx-2.5-pro', 'gp-nano'], messages: [{ role: 'user', content: 'hello' }], stream: true, stream_options: { include_usage: true } });
  t.equal(answer.statusCode, 200, answer.body);
  const chunks = sseData(answer.body).filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as { model: string });
  t.ok(chunks.length > 0 && chunks.every((chunk) => chunk.model.startsWith('gpt-4.1-nano') || chunk.model === 'gp-nano'), 'the stream comes from the gp model');
  t.equal(openAi.requests.length, 1);

  const limited = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['gx-2.5-pro'] });
  const refused = await postChat(gateway, limited, { models: ['gx-2.5-pro', 'gp-nano'], messages: [{ role: 'user', content: 'hello' }] });
  t.equal(refused.statusCode, 403, 'a listed model outside the limits is refused before anything is tried');
  t.equal(refused.json().error.code, 'model_not_allowed');

  const unknown = await postChat(gateway, token, { models: ['gx-2.5-pro', 'gx-9-ultra'], messages: [{ role: 'user', content: 'hello' }] });
  t.equal(unknown.statusCode, 404, 'a listed model no channel serves is named, before anything is tried');
  t.match(unknown.json().error, { code: 'model_not_found', param: 'models', message: /^models: no channel serves model "gx-9-ultra"/ });

  const bad = await postChat(gateway, token, { models: [], messages: [{ role: 'user', content: 'hello' }] });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().error, { param: 'models', message: 'models: expected at least one model' });
});

t.test('a client error is not retried on another model, and a chain that fails whole refunds everything', async (t) => {
  const { gx, openAi, gateway } = await fallbackGateway(t);
  const token = await issueToken(t, gateway);
  gx.next({ error: 400 });
  const refused = await postChat(gateway, token, chatBody('hello', { model: 'gx-2.5-pro' }));
  t.equal(refused.statusCode, 400, 'the request itself is wrong: no fallback');
  t.equal(gx.requests.length, 1);

  gx.next({ error: 503 });
  gx.next({ error: 503 });
  openAi.next({ error: 503 });
  const failed = await postChat(gateway, token, chatBody('hello', { model: 'gx-2.5-pro' }));
  t.equal(failed.statusCode, 502, failed.body);
  t.equal(gx.requests.length, 3);
  t.equal(openAi.requests.length, 1, 'every model of the chain was tried once');
  t.equal((await storedToken(gateway, token)).used_quota, 0, 'refunded in full');
});

t.test('the reservation covers the dearest model of the chain', async (t) => {
  const { gx, gateway } = await fallbackGateway(t);
  // The estimate of this request is 409 units at gx-2.5-pro's price and 818 at gx-3-pro-preview's.
  const token = await issueToken(t, gateway, { remain_quota: 600 });
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'gx-2.5-pro', max_tokens: 100 }));
  t.equal(answer.statusCode, 402, answer.body);
  t.match(answer.json().error, { code: 'insufficient_quota', message: /needs 818 quota units but the token has 600 left/ });
  t.equal(gx.requests.length, 0, 'refused before any channel was called');

  const alone = await postChat(gateway, token, { ...chatBody('hello', { max_tokens: 100 }), models: ['gx-2.5-pro'] });
  t.equal(alone.statusCode, 200, 'the same request with no fallback (a models list of one) fits');
});

t.test('fallbacks that name a model no channel serves, or the model itself, are refused at load', async (t) => {
  const gx = await startGx(t);
  const failure = await scenarioGateway(t, { pricing, fallbacks: { 'gx-2.5-pro': ['gx-2.5-pro', 'gx-9-ultra'] }, providers: [gxChannel('gx-main', gx.url)] }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(failure, {
    issues: [
      { path: ['fallbacks', 'gx-2.5-pro', 0], message: '"gx-2.5-pro" is "gx-2.5-pro" itself; list other models' },
      { path: ['fallbacks', 'gx-2.5-pro', 1], message: '"gx-9-ultra" is served by no channel (or alias); list a model of a channel\'s models or model_map' },
    ],
  });
});
