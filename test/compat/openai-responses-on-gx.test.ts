// The official clients' Responses calls against a gx model: gx speaks no Responses, so the
// gateway serves them through the Responses translator (Responses to chat completions, then
// chat to gx's native API) and keeps the conversation of `previous_response_id` itself.
import type { AddressInfo } from 'node:net';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import t from 'tap';
import { startFakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { answerGenerateContent, fakeThoughtSignature } from '../fakes/gx/generate-answer.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { issueToken, storedToken } from '../helpers/gateway-scenario.js';

const upstreamKey = 'gx-responses-upstream-key';
const model = 'gx-2.5-pro';
const price = { input_per_mtok: 1.25, output_per_mtok: 10 };
const upstream = await startFakeGxUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const gateway = await buildTestApp(t, 'memory', {
  providers: [{ name: 'gx-main', plugin: 'gx', base_url: upstream.url, api_key: upstreamKey, models: [model] }],
  pricing: { [model]: price },
});
await gateway.app.listen({ port: 0, host: '127.0.0.1' });
const baseURL = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}/v1`;
const token = await issueToken(t, gateway, { remain_quota: 500_000_000 });
const apiKey = `sk-${token.key}`;

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'The weather of a city', strict: false, parameters: { type: 'object', properties: { city: { type: 'string' } } } };

/** The usage the fake gx upstream answered its last request with, as its own default answer computes it. */
function lastUpstreamUsage(): { input: number; output: number } {
  const usage = answerGenerateContent(model, upstream.requests.at(-1)!.json, 'usage').response.usageMetadata as Record<string, number>;
  return { input: usage.promptTokenCount ?? 0, output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) };
}

/** Quota units of `usage` at the model's price (500,000 units a dollar). */
const unitsOf = (usage: { input: number; output: number }) => Math.ceil((usage.input * price.input_per_mtok + usage.output * price.output_per_mtok) / 2);

t.test('responses.create on gx returns the echo with the upstream’s usage, and the token is billed exactly that', async (t) => {
  const before = (await storedToken(gateway, token)).used_quota;
  const response = await client.responses.create({ model, input: 'hello there', instructions: 'Be brief.' });
  t.equal(response.object, 'response');
  t.equal(response.status, 'completed');
  t.equal(response.model, model);
  t.equal(response.output_text, 'echo: hello there');
  const usage = lastUpstreamUsage();
  t.equal(response.usage?.input_tokens, usage.input, 'input tokens are the upstream’s');
  t.equal(response.usage?.output_tokens, usage.output, 'output tokens are the upstream’s');
  t.equal((await storedToken(gateway, token)).used_quota - before, unitsOf(usage), 'the token is billed the upstream’s usage at the model’s price');
});

t.test('responses.stream on gx streams the words and ends with the completed response and its usage', async (t) => {
  const stream = client.responses.stream({ model, input: 'stream these words' });
  let text = '';
  for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
  const final = await stream.finalResponse();
  t.equal(text, 'echo: stream these words');
  t.equal(final.output_text, 'echo: stream these words');
  t.equal(final.usage?.output_tokens, lastUpstreamUsage().output);
});

t.test('a function call round trip on gx keeps the call id from the call to its output', async (t) => {
  const call = await client.responses.create({ model, input: 'call get_weather {"city": "Paris"}', tools: [weatherTool] });
  const functionCall = call.output.find((item) => item.type === 'function_call');
  t.match(functionCall, { type: 'function_call', name: 'get_weather', call_id: String });
  t.same(JSON.parse(functionCall!.arguments), { city: 'Paris' });
  const answer = await client.responses.create({
    model,
    tools: [weatherTool],
    previous_response_id: call.id,
    input: [{ type: 'function_call_output', call_id: functionCall!.call_id, output: '{"sky":"clear"}' }],
  });
  const contents = (upstream.requests.at(-1)!.json as { contents: Array<{ parts: Array<Record<string, unknown>> }> }).contents;
  const parts = contents.flatMap((content) => content.parts);
  t.match(parts.find((part) => part.functionCall !== undefined), { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: fakeThoughtSignature('get_weather') }, 'the conversation kept the call, with the signature gx gave it');
  t.match(parts.find((part) => part.functionResponse !== undefined), { functionResponse: { name: 'get_weather' } }, 'the output went back as the call’s response');
  t.match(answer.output_text, /^get_weather returned .*clear/);
});

t.test('previous_response_id on gx continues a streamed answer’s conversation: the upstream gets the whole of it', async (t) => {
  const stream = client.responses.stream({ model, input: 'my name is Ada' });
  const first = await stream.finalResponse();
  const second = await client.responses.create({ model, input: 'what is my name?', previous_response_id: first.id });
  t.equal(second.previous_response_id, first.id);
  const contents = (upstream.requests.at(-1)!.json as { contents: Array<{ role: string; parts: Array<{ text?: string }> }> }).contents;
  t.same(
    contents.map((content) => [content.role, content.parts.map((part) => part.text).join('')]),
    [
      ['user', 'my name is Ada'],
      ['model', 'echo: my name is Ada'],
      ['user', 'what is my name?'],
    ],
  );
});

t.test('a follow-up of a response sent with store: false, or of an unknown id, is a 404 saying so', async (t) => {
  const unstored = await client.responses.create({ model, input: 'forget this', store: false });
  for (const id of [unstored.id, 'resp_does_not_exist']) {
    const error = await client.responses.create({ model, input: 'and then?', previous_response_id: id }).catch((caught: unknown) => caught);
    t.type(error, NotFoundError);
    t.match((error as NotFoundError).message, new RegExp(`previous_response_id: no response "${id}" is kept`));
  }
});

t.test('a request whose only tool is web search (as Codex offers it) is answered without it; forcing web search is a 400 naming the field', async (t) => {
  const answered = await client.responses.create({ model, input: 'search for nothing', tools: [{ type: 'web_search' }], tool_choice: 'auto' });
  t.equal(answered.output_text, 'echo: search for nothing');
  const sent = upstream.requests.at(-1)!.json as Record<string, unknown>;
  t.notOk('tools' in sent || 'toolConfig' in sent, 'gx is offered no tool and no calling mode');
  const error = await client.responses.create({ model, input: 'search', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } as never }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.match(error, { status: 400, param: 'tool_choice.type', message: /tool_choice\.type: forcing a "web_search" tool cannot be served on this model/ });
});

const vercel = createOpenAI({ apiKey, baseURL });

t.test('the Vercel AI SDK’s default openai(model), Responses, answers with generateText on gx', async (t) => {
  const result = await generateText({ model: vercel(model), prompt: 'hello from vercel' });
  t.equal(result.text, 'echo: hello from vercel');
  t.equal(result.usage.outputTokens, lastUpstreamUsage().output);
  t.equal(upstream.requests.at(-1)!.path, `/v1beta/models/${model}:generateContent`);
});

t.test('the Vercel AI SDK’s streamText streams the words of a gx model', async (t) => {
  const result = streamText({ model: vercel(model), prompt: 'stream from vercel' });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  t.equal(text, 'echo: stream from vercel');
  t.equal((await result.usage).outputTokens, lastUpstreamUsage().output);
  t.equal(upstream.requests.at(-1)!.path, `/v1beta/models/${model}:streamGenerateContent`);
});
