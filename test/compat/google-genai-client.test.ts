import { ApiError, GoogleGenAI, Type, type FunctionDeclaration } from '@google/genai';
import t from 'tap';
import { embeddingValues } from '../fakes/gx/embed-answer.js';
import { startCompatGateway } from './compat-gateway.js';

const gateway = await startCompatGateway(t);

/**
 * The official client pointed at the gateway with only a base URL and a key, as its users set
 * it up. js-genai (Node) sends its `apiKey` as an `x-goog-api-key` header, which the native
 * surface reads beside the spec's `x-gx-api-key`.
 */
function clientWith(apiKey: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url } });
}

const client = clientWith(gateway.apiKey);

const weatherFunction: FunctionDeclaration = {
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

t.test('models.generateContent returns the text and usage metadata', async (t) => {
  const response = await client.models.generateContent({
    model: 'gx-2.5-pro',
    contents: 'hello there',
    config: { systemInstruction: 'Be brief.', temperature: 0.2 },
  });
  t.equal(response.text, 'echo: hello there');
  t.equal(response.candidates?.[0]?.finishReason, 'STOP');
  t.ok((response.usageMetadata?.promptTokenCount ?? 0) > 0, 'prompt tokens are counted');
  t.ok((response.usageMetadata?.candidatesTokenCount ?? 0) > 0, 'answer tokens are counted');
  t.equal(response.modelVersion, 'gx-2.5-pro');
});

t.test('the call reaches the upstream on its v1beta path with the channel key, not the client key', async (t) => {
  gateway.upstream.reset();
  await client.models.generateContent({ model: 'gx-2.5-flash', contents: 'which path' });
  t.equal(gateway.upstream.requests.length, 1, 'one upstream call');
  t.equal(gateway.upstream.requests[0]?.path, '/v1beta/models/gx-2.5-flash:generateContent');
  t.not(gateway.upstream.requests[0]?.headers['x-gx-api-key'], gateway.apiKey, 'the gateway sends its own upstream key, not the client key');
  t.notOk(gateway.upstream.requests[0]?.headers['x-goog-api-key'], 'the client header is not forwarded');
});

t.test('models.generateContentStream yields the answer in several chunks', async (t) => {
  const stream = await client.models.generateContentStream({ model: 'gx-2.5-pro', contents: 'stream these four words' });
  let text = '';
  let chunks = 0;
  let lastFinishReason: string | undefined;
  let lastUsage: number | undefined;
  for await (const chunk of stream) {
    chunks += 1;
    text += chunk.text ?? '';
    lastFinishReason = chunk.candidates?.[0]?.finishReason ?? lastFinishReason;
    lastUsage = chunk.usageMetadata?.totalTokenCount ?? lastUsage;
  }
  t.equal(text, 'echo: stream these four words');
  t.ok(chunks > 1, `the text arrives in several chunks (${chunks})`);
  t.equal(lastFinishReason, 'STOP');
  t.ok((lastUsage ?? 0) > 0, 'the last chunk carries usage');
});

t.test('a declared function the model calls comes back in functionCalls', async (t) => {
  const response = await client.models.generateContent({
    model: 'gx-2.5-pro',
    contents: 'call get_weather {"city":"Paris"}',
    config: { tools: [{ functionDeclarations: [weatherFunction] }] },
  });
  t.same(
    response.functionCalls?.map((call) => ({ name: call.name, args: call.args })),
    [{ name: 'get_weather', args: { city: 'Paris' } }],
  );
});

t.test('models.embedContent (sent as :batchEmbedContents) returns one vector per content', async (t) => {
  gateway.upstream.reset();
  const response = await client.models.embedContent({
    model: 'text-embedding-004',
    contents: ['first text', 'second text'],
    config: { outputDimensionality: 4 },
  });
  t.equal(gateway.upstream.requests[0]?.path, '/v1beta/models/text-embedding-004:batchEmbedContents', 'the SDK calls batchEmbedContents');
  t.same(
    response.embeddings?.map((embedding) => embedding.values),
    [embeddingValues('first text', 4), embeddingValues('second text', 4)],
    'the vectors are the upstream ones, in order',
  );
});

t.test('an unknown model makes the SDK throw ApiError with status 404', async (t) => {
  const error = await client.models.generateContent({ model: 'no-such-model', contents: 'hi' }).catch((caught: unknown) => caught);
  t.ok(error instanceof ApiError, `ApiError, got ${String(error)}`);
  t.equal((error as ApiError).status, 404);
});

t.test('an unknown API key makes the SDK throw ApiError with status 401', async (t) => {
  const error = await clientWith('sk-not-a-key-this-gateway-issued')
    .models.generateContent({ model: 'gx-2.5-pro', contents: 'hi' })
    .catch((caught: unknown) => caught);
  t.ok(error instanceof ApiError, `ApiError, got ${String(error)}`);
  t.equal((error as ApiError).status, 401);
  t.match((error as ApiError).message, /UNAUTHENTICATED|API key/);
});

t.test('apiKey alone is enough: the SDK sends it as x-goog-api-key, which the gateway reads', async (t) => {
  gateway.upstream.reset();
  const response = await clientWith(gateway.apiKey).models.generateContent({ model: 'gx-2.5-pro', contents: 'key only' });
  t.equal(response.text, 'echo: key only');
  t.equal(gateway.upstream.requests.length, 1, 'the call reached the upstream');
});

t.test('the key may also go as the spec header x-gx-api-key', async (t) => {
  const specHeader = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.url, headers: { 'x-gx-api-key': gateway.apiKey } } });
  const response = await specHeader.models.generateContent({ model: 'gx-2.5-pro', contents: 'spec header' });
  t.equal(response.text, 'echo: spec header');
});

t.test('a different key in x-gx-api-key than the SDK sends in x-goog-api-key makes the SDK throw ApiError with status 400', async (t) => {
  const conflicting = new GoogleGenAI({
    apiKey: gateway.apiKey,
    httpOptions: { baseUrl: gateway.url, headers: { 'x-gx-api-key': 'sk-another-key-than-the-sdk-key-0000000000000000' } },
  });
  const error = await conflicting.models.generateContent({ model: 'gx-2.5-pro', contents: 'hi' }).catch((caught: unknown) => caught);
  t.ok(error instanceof ApiError, `ApiError, got ${String(error)}`);
  t.equal((error as ApiError).status, 400);
  t.match((error as ApiError).message, /two different credentials/);
});

t.test('the key may also go as Authorization: Bearer', async (t) => {
  const bearer = new GoogleGenAI({
    apiKey: gateway.apiKey,
    httpOptions: { baseUrl: gateway.url, headers: { authorization: `Bearer ${gateway.apiKey}` } },
  });
  const response = await bearer.models.generateContent({ model: 'gx-2.5-pro', contents: 'bearer' });
  t.equal(response.text, 'echo: bearer');
});
