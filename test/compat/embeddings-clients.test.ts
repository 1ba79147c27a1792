// The official `openai` SDK, LangChain's OpenAIEmbeddings and the Vercel AI SDK's
// openai.embedding() call POST /v1/embeddings on a gx embedding model, served by the native
// embed calls of the fake gx upstream.
import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embed, embedMany } from 'ai';
import type { AddressInfo } from 'node:net';
import OpenAI, { BadRequestError } from 'openai';
import t from 'tap';
import { TokenService } from '../../core/tokens/token-service.js';
import { UserService } from '../../core/users/user-service.js';
import { embeddingValues } from '../fakes/gx/embed-answer.js';
import { startFakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { lastRequestRecord } from '../helpers/gateway-scenario.js';

// text-embedding-004 costs 0.0001 USD a call: 50 quota units, however many texts one call embeds.
const unitsPerCall = 50;

const upstreamKey = 'gx-embeddings-upstream-key';
const upstream = await startFakeGxUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const gateway = await buildTestApp(t, 'memory', {
  providers: [{ name: 'gx-main', plugin: 'gx', base_url: upstream.url, api_key: upstreamKey, models: ['text-embedding-004'] }],
  pricing: { 'text-embedding-004': { per_call: 0.0001 } },
});
await gateway.app.listen({ port: 0, host: '127.0.0.1' });
const baseURL = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}/v1`;
const { user } = await gateway.app.gateway.resolve(UserService).create('embeddings-compat');
const tokens = gateway.app.gateway.resolve(TokenService);
const token = await tokens.create(user.id, { name: 'embeddings-compat', remain_quota: 1_000_000 });
const apiKey = `sk-${await tokens.revealKey(user.id, token.id)}`;

const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
const usedQuota = async () => (await tokens.get(user.id, token.id)).used_quota;
/** The fake's vector for a text, as float32 (what a base64 embedding can carry). */
const float32Values = (text: string, dimensions = 8) => embeddingValues(text, dimensions).map(Math.fround);

t.test('embeddings.create with float returns the upstream vector, and usage is the tokens billed for the one call', async (t) => {
  const before = await usedQuota();
  upstream.reset();
  const response = await client.embeddings.create({ model: 'text-embedding-004', input: 'hello world', encoding_format: 'float' });
  t.equal(upstream.requests[0]?.path, '/v1beta/models/text-embedding-004:embedContent', 'one text, one embedContent call');
  t.equal(response.object, 'list');
  t.equal(response.model, 'text-embedding-004');
  t.strictSame(response.data, [{ object: 'embedding', index: 0, embedding: embeddingValues('hello world', 8) }]);
  t.equal(response.usage.prompt_tokens, lastRequestRecord(gateway)?.input_tokens, 'the tokens of the log line, the billed ones');
  t.equal(response.usage.total_tokens, response.usage.prompt_tokens);
  t.equal((await usedQuota()) - before, unitsPerCall);
});

t.test('embeddings.create by default asks for base64 and decodes it to the same vectors, several inputs in one batch call', async (t) => {
  const before = await usedQuota();
  upstream.reset();
  const response = await client.embeddings.create({ model: 'text-embedding-004', input: ['first text', 'second text'], dimensions: 4 });
  t.equal(upstream.requests.length, 1);
  t.equal(upstream.requests[0]?.path, '/v1beta/models/text-embedding-004:batchEmbedContents');
  t.strictSame(
    response.data.map((entry) => entry.embedding),
    [float32Values('first text', 4), float32Values('second text', 4)],
  );
  t.equal((await usedQuota()) - before, unitsPerCall, 'one batch is one call');
});

t.test('token arrays are a 400 the SDK reports as BadRequestError naming input', async (t) => {
  const error = await client.embeddings.create({ model: 'text-embedding-004', input: [[1, 2, 3]] }).catch((caught: unknown) => caught);
  t.ok(error instanceof BadRequestError, `BadRequestError, got ${String(error)}`);
  t.equal((error as BadRequestError).param, 'input');
});

t.test('LangChain’s OpenAIEmbeddings embeds a query and documents', async (t) => {
  const embeddings = new OpenAIEmbeddings({ model: 'text-embedding-004', apiKey, configuration: { baseURL }, maxRetries: 0 });
  t.strictSame(await embeddings.embedQuery('what is a gateway'), float32Values('what is a gateway'));
  t.strictSame(await embeddings.embedDocuments(['one', 'two', 'three']), ['one', 'two', 'three'].map((text) => float32Values(text)));
});

t.test('the Vercel AI SDK’s openai.embedding() embeds one value and many', async (t) => {
  const openai = createOpenAI({ apiKey, baseURL });
  const one = await embed({ model: openai.embedding('text-embedding-004'), value: 'sunny day', maxRetries: 0 });
  t.strictSame(one.embedding, embeddingValues('sunny day', 8));
  t.ok(one.usage.tokens > 0, 'usage reported');
  const many = await embedMany({ model: openai.embedding('text-embedding-004'), values: ['a', 'b'], maxRetries: 0 });
  t.strictSame(many.embeddings, [embeddingValues('a', 8), embeddingValues('b', 8)]);
});
