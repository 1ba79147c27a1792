// The official @google/genai client, which Gemini CLI is built on, calls the native routes for
// a gp model (whose provider implements chat but not native.generate), served through the
// native-to-chat translator by the chat completions of the fake OpenAI upstream. Gemini CLI
// itself runs in the agents suite (test/agents/gemini-cli-on-gp.test.ts).
import { readFileSync } from 'node:fs';
import { GoogleGenAI, type Content } from '@google/genai';
import t from 'tap';
import { startGpCompatGateway } from './compat-gateway.js';

const { gateway, upstream } = await startGpCompatGateway(t);

/** As in google-genai-client.test.ts: the key also in the spec's header, until the vendor's own is read. */
const client = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.url, headers: { 'x-gx-api-key': gateway.apiKey } } });

/** A real OpenAI stream that says "PRE_TOOL", then calls `weather` with its arguments in two pieces (test/fixtures/native-to-chat). */
const recordedToolCallChunks = readFileSync(new URL('../fixtures/native-to-chat/openai-chat-stream-text-then-tool-call.chunks.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as unknown);

interface UpstreamChat {
  model: string;
  messages: Array<Record<string, unknown>>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  top_k?: unknown;
}
const lastUpstreamChat = () => upstream.requests.at(-1)?.json as UpstreamChat;

t.test('models.generateContent on a gp model answers the chat completion’s text with STOP and its usage', async (t) => {
  upstream.reset();
  const response = await client.models.generateContent({
    model: 'gp-5.4',
    contents: 'hello there',
    config: { systemInstruction: 'Be brief.', temperature: 1, topP: 0.95, topK: 64 },
  });
  t.equal(response.text, 'echo: hello there');
  t.equal(response.candidates?.[0]?.finishReason, 'STOP');
  t.equal(response.modelVersion, 'gp-5.4');
  const sent = lastUpstreamChat();
  t.equal(upstream.requests.at(-1)?.path, '/v1/chat/completions');
  t.strictSame(sent.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hello there' },
  ]);
  t.notOk('top_k' in sent, 'topK is not sent to an OpenAI-format upstream');
  const usage = response.usageMetadata;
  t.ok((usage?.promptTokenCount ?? 0) > 0 && (usage?.candidatesTokenCount ?? 0) > 0, 'usage is counted');
  t.equal(usage?.totalTokenCount, (usage?.promptTokenCount ?? 0) + (usage?.candidatesTokenCount ?? 0));
});

t.test('models.generateContentStream yields the text in chunks and ends with the finish and the usage', async (t) => {
  let text = '';
  let chunks = 0;
  let finishReason: string | undefined;
  let totalTokens: number | undefined;
  for await (const chunk of await client.models.generateContentStream({ model: 'gp-5.4', contents: 'stream these four words' })) {
    chunks += 1;
    text += chunk.text ?? '';
    finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    totalTokens = chunk.usageMetadata?.totalTokenCount ?? totalTokens;
  }
  t.equal(text, 'echo: stream these four words');
  t.ok(chunks > 1, `several chunks (${chunks})`);
  t.equal(finishReason, 'STOP');
  t.ok((totalTokens ?? 0) > 0);
  t.strictSame(lastUpstreamChat().stream_options, { include_usage: true }, 'the stream asked for usage');
});

t.test('a function call streamed in pieces comes back whole with its id, and the response goes back under that id', async (t) => {
  upstream.next({ chunks: recordedToolCallChunks });
  const tools = [{ functionDeclarations: [{ name: 'weather', parametersJsonSchema: { type: 'object', properties: {} } }] }];
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather?' }] }];
  const modelParts: NonNullable<Content['parts']> = [];
  for await (const chunk of await client.models.generateContentStream({ model: 'gp-5.4', contents, config: { tools } })) {
    modelParts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
  }
  const call = modelParts.find((part) => part.functionCall !== undefined)?.functionCall;
  t.strictSame(call, { id: 'call_NZa7xqfefoaMI2YYHowVXVlU', name: 'weather', args: {} });

  contents.push({ role: 'model', parts: modelParts }, { role: 'user', parts: [{ functionResponse: { id: call?.id, name: 'weather', response: { output: 'sunny' } } }] });
  const answer = await client.models.generateContent({ model: 'gp-5.4', contents, config: { tools } });
  t.equal(answer.text, 'echo: What is the weather?');
  const sent = lastUpstreamChat().messages;
  t.strictSame(sent.slice(1), [
    { role: 'assistant', content: 'PRE_TOOL', tool_calls: [{ id: 'call_NZa7xqfefoaMI2YYHowVXVlU', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'call_NZa7xqfefoaMI2YYHowVXVlU', content: '{"output":"sunny"}' },
  ]);
});

t.test('a built-in native tool on a gp model is a 400 in the native error shape naming it', async (t) => {
  const error = await client.models
    .generateContent({ model: 'gp-5.4', contents: 'search the web', config: { tools: [{ googleSearch: {} }] } })
    .catch((caught: unknown) => caught as { status?: number; message?: string });
  t.equal((error as { status?: number }).status, 400);
  t.match((error as { message?: string }).message, /tools\[0\]\.googleSearch/);
});
