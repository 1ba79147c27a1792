// The official Anthropic SDK against gx and gp models, through the gateway and the fakes:
// messages.create, stream, a tool round trip, thinking, count_tokens, errors, and the token
// billed exactly what the answer's usage says.
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import t, { type Test } from 'tap';
import { fakeThoughtSignature } from '../fakes/gx/generate-answer.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { gxChannel, issueToken, scenarioGateway, startGx, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// 2 and 8 USD per million tokens: at 500000 quota units per USD, 1 unit an input token and 4
// an output token, so what a request costs is exact.
const pricing = { 'gx-*': { input_per_mtok: 2, output_per_mtok: 8 }, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };
const openAiKey = 'gp-upstream-key';

/** Quota units for a Messages usage: the billed prompt is input_tokens plus the cache reads. */
const unitsFor = (usage: Anthropic.Usage) => usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + usage.output_tokens * 4;

const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

interface Scene {
  gateway: TestApp;
  token: IssuedToken;
  client: Anthropic;
  gx: Awaited<ReturnType<typeof startGx>>;
  openAi: Awaited<ReturnType<typeof startFakeOpenAiUpstream>>;
}

async function scene(t: Test): Promise<Scene> {
  const gx = await startGx(t);
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: [
      gxChannel('gx-main', gx.url, { models: ['gx-2.5-pro', 'gx-2.5-flash', 'gx-3-pro-preview'] }),
      { name: 'gp-main', plugin: 'gp', base_url: openAi.url, api_key: openAiKey, models: ['gp-nano'], model_map: { 'gp-nano': 'gpt-4.1-nano' }, groups: ['default'] },
    ],
  });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  const token = await issueToken(t, gateway);
  const client = new Anthropic({ baseURL: `http://127.0.0.1:${port}`, apiKey: `sk-${token.key}`, maxRetries: 0 });
  return { gateway, token, client, gx, openAi };
}

/** Runs `call`, then waits for the token's quota to settle, and answers what the call returned and what it cost. */
async function billed<Value>(s: Scene, call: () => Promise<Value>): Promise<{ value: Value; units: number }> {
  const before = (await storedToken(s.gateway, s.token)).used_quota;
  const value = await call();
  const after = await waitForToken(s.gateway, s.token, (stored) => stored.used_quota > before);
  return { value, units: after.used_quota - before };
}

t.test('the Anthropic SDK on every chat family', async (t) => {
  const s = await scene(t);

  for (const model of ['gx-2.5-pro', 'gp-nano']) {
    t.test(`${model}: messages.create answers a Messages object, billed exactly its usage`, async (t) => {
      const { value: message, units } = await billed(s, () => s.client.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }] }));
      t.equal(message.type, 'message');
      t.match(message.id, /^msg_/);
      t.equal(message.model, model, 'the model the client named');
      t.equal(message.stop_reason, 'end_turn');
      t.match(message.content, [{ type: 'text', text: 'echo: Say hello.' }]);
      t.equal(units, unitsFor(message.usage), 'the token is billed what the answer says it used');
    });

    t.test(`${model}: messages.stream streams the text and ends with the usage`, async (t) => {
      const seen: string[] = [];
      const { value: message, units } = await billed(s, async () => {
        const stream = s.client.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Stream a greeting.' }] });
        stream.on('streamEvent', (event) => seen.push(event.type));
        return stream.finalMessage();
      });
      t.equal(seen[0], 'message_start');
      t.strictSame(seen.slice(-2), ['message_delta', 'message_stop']);
      t.ok(seen.includes('content_block_delta'));
      t.match(message.content, [{ type: 'text', text: 'echo: Stream a greeting.' }]);
      t.ok(message.usage.output_tokens > 0);
      t.equal(units, unitsFor(message.usage));
    });

    t.test(`${model}: count_tokens answers an estimate and says so`, async (t) => {
      const { data, response } = await s.client.messages
        .countTokens({ model, system: 'You help with the weather.', tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Oslo?' }] })
        .withResponse();
      t.ok(data.input_tokens > 0);
      t.equal(response.headers.get('x-token-count'), 'estimated');
    });
  }

  t.test('gx: a tool round trip keeps the tool_use id, and the result reaches gx as a function response', async (t) => {
    const first = await s.client.messages.create({ model: 'gx-2.5-pro', max_tokens: 64, tools: [weatherTool], messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }] });
    t.equal(first.stop_reason, 'tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    t.match(call, { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    const second = await s.client.messages.create({
      model: 'gx-2.5-pro',
      max_tokens: 64,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'call get_weather {"city":"Paris"}' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.type === 'tool_use' ? call!.id : '', content: '{"temperature":18}' }] },
      ],
    });
    const sent = s.gx.requests.at(-1)!.json as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    t.strictSame(sent.contents.at(-1)?.parts, [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }]);
    t.match(second.content, [{ type: 'text', text: /get_weather returned/ }]);
    t.strictSame(
      sent.contents.at(-2)?.parts,
      [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: fakeThoughtSignature('get_weather') }],
      'the signature gx gave the call, kept in a thinking block by the SDK, is back on the call',
    );
  });

  t.test('gx-3: a streamed answer’s thought signature comes back on the text gx signed, on the next turn', async (t) => {
    const model = 'gx-3-pro-preview';
    const first = await s.client.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hi.' }] }).finalMessage();
    t.match(first.content, [{ type: 'text', text: 'echo: Say hi.' }, { type: 'thinking', thinking: '', signature: fakeThoughtSignature('text') }]);
    await s.client.messages.create({
      model,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Say hi.' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'Again.' },
      ],
    });
    const sent = s.gx.requests.at(-1)!.json as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
    t.strictSame(sent.contents[1], { role: 'model', parts: [{ text: 'echo: Say hi.', thoughtSignature: fakeThoughtSignature('text') }] });
  });

  t.test('gp: a tool call comes back as tool_use with its id, and the result goes to gp as a tool message of that id', async (t) => {
    s.openAi.next({
      json: {
        id: 'chatcmpl-tool',
        object: 'chat.completion',
        created: 1_764_650_000,
        model: 'gpt-4.1-nano',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'call_gp_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
      },
    });
    const first = await s.client.messages.create({ model: 'gp-nano', max_tokens: 64, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Rome?' }] });
    t.equal(first.stop_reason, 'tool_use');
    t.match(first.content, [{ type: 'tool_use', id: 'call_gp_1', name: 'get_weather', input: { city: 'Rome' } }]);
    await s.client.messages.create({
      model: 'gp-nano',
      max_tokens: 64,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Rome?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_gp_1', content: 'sunny' }] },
      ],
    });
    const sent = s.openAi.requests.at(-1)!.json as { messages: Array<Record<string, unknown>>; tools: unknown[] };
    t.match(sent.messages.at(-2), { role: 'assistant', tool_calls: [{ id: 'call_gp_1', function: { name: 'get_weather' } }] });
    t.strictSame(sent.messages.at(-1), { role: 'tool', tool_call_id: 'call_gp_1', content: 'sunny' });
    t.match(sent.tools, [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } }]);
  });

  t.test('gx: thinking with a budget comes back as a thinking block, the budget sent to gx', async (t) => {
    const message = await s.client.messages.create({ model: 'gx-2.5-flash', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Think, then say hi.' }] });
    const sent = s.gx.requests.at(-1)!.json as { generationConfig: { thinkingConfig: unknown } };
    t.strictSame(sent.generationConfig.thinkingConfig, { thinkingBudget: 1024, includeThoughts: true });
    t.match(message.content, [{ type: 'thinking', thinking: String }, { type: 'text', text: 'echo: Think, then say hi.' }]);
    t.ok((message.usage.output_tokens_details?.thinking_tokens ?? 0) > 0, 'thinking tokens reported');
  });

  t.test('gp: thinking sent to an OpenAI-format upstream carries no gx passthrough', async (t) => {
    await s.client.messages.create({ model: 'gp-nano', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
    t.notOk('extra_body' in (s.openAi.requests.at(-1)!.json as object));
  });

  t.test('mistakes and bad keys come back as the SDK’s own error classes', async (t) => {
    await t.rejects(s.client.messages.create({ model: 'gx-2.5-pro', max_tokens: 0, messages: [{ role: 'user', content: 'hi' }] }), Anthropic.BadRequestError);
    const stranger = new Anthropic({ baseURL: s.client.baseURL, apiKey: 'sk-not-a-key-000000000000000000000000', maxRetries: 0 });
    await t.rejects(stranger.messages.create({ model: 'gx-2.5-pro', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }), Anthropic.AuthenticationError);
  });
});
