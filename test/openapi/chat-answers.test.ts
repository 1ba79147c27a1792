import t from 'tap';
import { assertOpenAiSchema } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway, sseEvents } from './every-family-gateway.js';

// Chat completions, JSON and every stream chunk, on gx (translated from the native API) and gp
// (passed through), against OpenAI's description.

const { postJson, upstreams } = await startEveryFamilyGateway(t);
const messages = (text: string) => [{ role: 'user', content: text }];
const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

for (const model of ['gx-2.5-pro', 'gp-5.4']) {
  t.test(`a ${model} chat completion matches CreateChatCompletionResponse`, async (t) => {
    const response = await postJson('/v1/chat/completions', { model, messages: messages('hello'), temperature: 0.2 });
    t.equal(response.statusCode, 200);
    assertOpenAiSchema(t, 'CreateChatCompletionResponse', [response.json()], { what: `a ${model} chat completion` });
  });

  t.test(`every chunk of a ${model} chat stream, with and without usage, matches CreateChatCompletionStreamResponse`, async (t) => {
    const withUsage = await postJson('/v1/chat/completions', { model, messages: messages('count to three'), stream: true, stream_options: { include_usage: true } });
    const withoutUsage = await postJson('/v1/chat/completions', { model, messages: messages('count to three'), stream: true });
    t.equal(withUsage.statusCode, 200);
    t.equal(withoutUsage.statusCode, 200);
    const usageChunk = sseEvents(withUsage).at(-1) as { choices: unknown[]; usage: unknown };
    t.match(usageChunk, { choices: [], usage: { prompt_tokens: Number } }, 'the last chunk carries the usage');
    assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', [...sseEvents(withUsage), ...sseEvents(withoutUsage)], { what: `the chunks of ${model} chat streams` });
  });
}

// The gp family passes the upstream's answer on; its tool calls are OpenAI's own. gx builds them.
t.test('a gx tool call with its thought signature (reasoning_details), JSON and streamed, matches', async (t) => {
  const body = { model: 'gx-2.5-pro', messages: messages('call get_weather {"city": "Paris"}'), tools: [weatherTool], tool_choice: 'required' };
  const json = await postJson('/v1/chat/completions', body);
  t.match(json.json().choices[0], { finish_reason: 'tool_calls', message: { tool_calls: [{ type: 'function', function: { name: 'get_weather' } }] } });
  t.match(json.json().choices[0].message.reasoning_details, [{ type: 'reasoning.encrypted', data: String, id: json.json().choices[0].message.tool_calls[0].id }]);
  const stream = await postJson('/v1/chat/completions', { ...body, stream: true, stream_options: { include_usage: true } });
  const chunks = sseEvents(stream) as Array<{ choices: Array<{ delta: { tool_calls?: unknown[]; reasoning_details?: unknown[] } }> }>;
  t.ok(chunks.some((chunk) => chunk.choices[0]?.delta.tool_calls !== undefined && chunk.choices[0].delta.reasoning_details !== undefined), 'a chunk carries the call and its signature');
  assertOpenAiSchema(t, 'CreateChatCompletionResponse', [json.json()], { what: 'a gx completion that calls a tool' });
  assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', chunks, { what: 'the chunks of a gx stream that calls a tool' });
});

t.test('a gx answer with thoughts (reasoning_content) matches, JSON and stream', async (t) => {
  const thinking = { gx: { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } } };
  const body = { model: 'gx-2.5-pro', messages: messages('ponder'), extra_body: thinking };
  const json = await postJson('/v1/chat/completions', body);
  t.equal(json.statusCode, 200);
  t.match(json.json().choices[0].message, { reasoning_content: /Reading the request/ });
  const stream = await postJson('/v1/chat/completions', { ...body, stream: true, stream_options: { include_usage: true } });
  assertOpenAiSchema(t, 'CreateChatCompletionResponse', [json.json()], { what: 'a gx completion with thoughts' });
  assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', sseEvents(stream), { what: 'the chunks of a gx stream with thoughts' });
});

t.test('an error after a chat stream started comes in-band as an ErrorResponse', async (t) => {
  upstreams.gx.fake.next({ resetAfterChunks: 2 });
  const response = await postJson('/v1/chat/completions', { model: 'gx-2.5-pro', messages: messages('count to ten slowly'), stream: true });
  t.equal(response.statusCode, 200, 'the stream had started');
  const events = sseEvents(response) as Array<Record<string, unknown>>;
  const errors = events.filter((event) => 'error' in event);
  t.equal(errors.length, 1, 'one error event ends the stream');
  assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', events.filter((event) => !('error' in event)), { what: 'the chunks before it' });
  assertOpenAiSchema(t, 'ErrorResponse', errors, { what: 'the in-band error' });
});
