import OpenAI, { APIError, AuthenticationError, NotFoundError } from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import t from 'tap';
import { startCompatGateway } from './compat-gateway.js';

const gateway = await startCompatGateway(t);

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

t.test('chat.completions.create returns the answer, a finish reason and usage', async (t) => {
  const completion = await client.chat.completions.create({
    model: 'gx-2.5-pro',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello there' },
    ],
  });
  t.equal(completion.object, 'chat.completion');
  t.equal(completion.model, 'gx-2.5-pro');
  t.equal(completion.choices.length, 1);
  t.equal(completion.choices[0]?.message.role, 'assistant');
  t.equal(completion.choices[0]?.message.content, 'echo: hello there');
  t.equal(completion.choices[0]?.finish_reason, 'stop');
  t.ok(completion.usage !== undefined && completion.usage.prompt_tokens > 0 && completion.usage.completion_tokens > 0, 'usage is counted');
  t.equal(completion.usage?.total_tokens, (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
});

t.test('a streamed completion iterates chunk by chunk and ends with usage when include_usage is set', async (t) => {
  const stream = await client.chat.completions.create({
    model: 'gx-2.5-pro',
    messages: [{ role: 'user', content: 'stream these four words' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let contentChunks = 0;
  const finishReasons: string[] = [];
  let usage: OpenAI.CompletionUsage | null | undefined;
  let usageChunkChoices = -1;
  for await (const chunk of stream) {
    t.equal(chunk.object, 'chat.completion.chunk');
    const choice = chunk.choices[0];
    if (choice?.delta.content) {
      text += choice.delta.content;
      contentChunks += 1;
    }
    if (choice?.finish_reason) finishReasons.push(choice.finish_reason);
    if (chunk.usage) {
      usage = chunk.usage;
      usageChunkChoices = chunk.choices.length;
    }
  }
  t.equal(text, 'echo: stream these four words');
  t.ok(contentChunks > 1, `the text arrives in several chunks (${contentChunks})`);
  t.same(finishReasons, ['stop'], 'one finish reason');
  t.ok(usage !== undefined && usage !== null && usage.completion_tokens > 0, 'the last chunk carries usage');
  t.equal(usageChunkChoices, 0, 'the usage chunk has no choices, as OpenAI sends it');
});

t.test('a declared function the model calls comes back as tool_calls the SDK parses', async (t) => {
  const completion = await client.chat.completions.create({
    model: 'gx-2.5-pro',
    messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
    tools: [weatherTool],
  });
  const message = completion.choices[0]?.message;
  t.equal(completion.choices[0]?.finish_reason, 'tool_calls');
  t.equal(message?.tool_calls?.length, 1);
  const call = message?.tool_calls?.[0];
  t.equal(call?.type, 'function');
  t.ok(typeof call?.id === 'string' && call.id !== '', 'the call has an id');
  if (call?.type !== 'function') return;
  t.equal(call.function.name, 'get_weather');
  t.same(JSON.parse(call.function.arguments), { city: 'Paris' });

  const answered = await client.chat.completions.create({
    model: 'gx-2.5-pro',
    messages: [
      { role: 'user', content: 'call get_weather {"city":"Paris"}' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ temperature: 21 }) },
    ],
    tools: [weatherTool],
  });
  t.equal(answered.choices[0]?.message.content, 'get_weather returned {"temperature":21}', 'the tool result goes back to the model');
});

t.test('a streamed tool call assembles into a final completion with the stream helper', async (t) => {
  // The helper checks every delta (indexes, ids, argument fragments) as it accumulates them.
  const runner = client.chat.completions.stream({
    model: 'gx-2.5-pro',
    messages: [{ role: 'user', content: 'call get_weather {"city":"Oslo"}' }],
    tools: [weatherTool],
  });
  const completion = await runner.finalChatCompletion();
  t.equal(completion.choices[0]?.finish_reason, 'tool_calls');
  const call = completion.choices[0]?.message.tool_calls?.[0];
  t.equal(call?.type, 'function');
  if (call?.type !== 'function') return;
  t.equal(call.function.name, 'get_weather');
  t.same(JSON.parse(call.function.arguments), { city: 'Oslo' });
});

t.test('an unknown model makes the SDK throw NotFoundError with status 404', async (t) => {
  const error = await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
  t.ok(error instanceof NotFoundError, `NotFoundError, got ${String(error)}`);
  t.ok(error instanceof APIError);
  t.equal((error as APIError).status, 404);
  t.ok(typeof (error as APIError).message === 'string' && (error as APIError).message.length > 0, 'with the gateway message');
});

t.test('an unknown API key makes the SDK throw AuthenticationError with status 401', async (t) => {
  const stranger = new OpenAI({ apiKey: 'sk-not-a-key-this-gateway-issued', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const error = await stranger.chat.completions.create({ model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
  t.ok(error instanceof AuthenticationError, `AuthenticationError, got ${String(error)}`);
  t.equal((error as APIError).status, 401);
  t.equal((error as APIError).code, 'invalid_api_key');
});
