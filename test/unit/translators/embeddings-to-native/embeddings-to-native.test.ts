import { readFileSync } from 'node:fs';
import t from 'tap';
import { GatewayError, type EmbeddingsRequest, type TranslationContext, type Usage } from '../../../../core/index.js';
import { embeddingsRequestSchema } from '../../../../core/contracts/embeddings-request.js';
import { nativeBatchEmbedRequestSchema, nativeEmbedRequestSchema } from '../../../../core/contracts/native-requests.js';
import embeddingsToNative from '../../../../translators/embeddings-to-native/index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/embeddings-to-native/${name}`, import.meta.url), 'utf8');
/** The recorded answers, parsed afresh, as the pipeline hands them to the translator. */
const embedAnswer = () => JSON.parse(fixture('gemini-embed-content.json')) as unknown;
const batchAnswer = () => JSON.parse(fixture('gemini-batch-embed-contents.json')) as unknown;
const recordedValues = (json: unknown): number[][] => {
  const answer = json as { embedding?: { values: number[] }; embeddings?: { values: number[] }[] };
  return answer.embedding === undefined ? (answer.embeddings ?? []).map((entry) => entry.values) : [answer.embedding.values];
};
/** The three questions of the recorded batch. */
const questions = ['What is the meaning of life?', 'How much wood would a woodchuck chuck?', 'How does the brain work?'];

const context: TranslationContext = { model: 'text-embedding-004', requestId: 'req-1', createdSeconds: 1_770_000_000, stream: false };
const usage: Usage = { inputTokens: 23, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'estimated' };
const parse = (body: Record<string, unknown>): EmbeddingsRequest => embeddingsRequestSchema.parse({ model: 'text-embedding-004', ...body });
const translate = (body: Record<string, unknown>) => embeddingsToNative.request(parse(body), context);

interface EmbeddingList {
  object: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
const answer = (body: unknown, operation: 'native.embed' | 'native.batchEmbed', request: EmbeddingsRequest) =>
  embeddingsToNative.answer(body, usage, operation, context, request) as EmbeddingList;

/** A base64 embedding read back as OpenAI's SDK reads it: little-endian float32. */
const decodeBase64 = (text: string): number[] => {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
};

t.test('one text goes to embedContent, dimensions as outputDimensionality, in a body the native route would accept', async (t) => {
  const translated = translate({ input: 'Hello world', dimensions: 256, user: 'user-42' });
  t.strictSame(translated, { operation: 'native.embed', request: { content: { parts: [{ text: 'Hello world' }] }, outputDimensionality: 256 } });
  t.ok(nativeEmbedRequestSchema.safeParse(translated.request).success);
  t.strictSame(translate({ input: ['Hello world'] }), { operation: 'native.embed', request: { content: { parts: [{ text: 'Hello world' }] } } }, 'an array of one is one text');
});

t.test('several texts go to batchEmbedContents, one content each, in order', async (t) => {
  const translated = translate({ input: questions });
  t.equal(translated.operation, 'native.batchEmbed');
  t.strictSame(translated.request, { requests: questions.map((text) => ({ content: { parts: [{ text }] } })) });
  t.ok(nativeBatchEmbedRequestSchema.safeParse(translated.request).success);
});

t.test('token arrays and more than 100 texts are a 400 on input that says what to send', async (t) => {
  for (const input of [[101, 202, 303], [[101], [202]]]) {
    const error = t.throws(() => translate({ input })) as GatewayError;
    t.match(error, { statusCode: 400, code: 'invalid_request', param: 'input' });
    t.match(error.message, /send the text itself/);
  }
  const tooMany = t.throws(() => translate({ input: Array.from({ length: 101 }, (_, index) => `text ${index}`) })) as GatewayError;
  t.match(tooMany, { statusCode: 400, param: 'input' });
  t.match(tooMany.message, /at most 100 texts.*got 101: split the input/);
  t.equal(translate({ input: Array.from({ length: 100 }, (_, index) => `text ${index}`) }).operation, 'native.batchEmbed', '100 texts fit');
});

t.test('the recorded embedContent answer becomes the OpenAI list with the vector, the client’s model and the billed tokens', async (t) => {
  t.strictSame(answer(embedAnswer(), 'native.embed', parse({ input: 'Hello world' })), {
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding: recordedValues(embedAnswer())[0] }],
    model: 'text-embedding-004',
    usage: { prompt_tokens: 23, total_tokens: 23 },
  });
});

t.test('the recorded batch answer gives one embedding per input, indexed in order', async (t) => {
  const list = answer(batchAnswer(), 'native.batchEmbed', parse({ input: questions }));
  t.strictSame(list.data.map((entry) => entry.index), [0, 1, 2]);
  t.strictSame(list.data.map((entry) => entry.embedding), recordedValues(batchAnswer()));
});

t.test('encoding_format base64 writes each vector as little-endian float32, as OpenAI does', async (t) => {
  const list = answer(batchAnswer(), 'native.batchEmbed', parse({ input: questions, encoding_format: 'base64' }));
  const vectors = recordedValues(batchAnswer());
  list.data.forEach((entry, index) => {
    t.type(entry.embedding, 'string');
    t.strictSame(decodeBase64(entry.embedding as string), (vectors[index] ?? []).map(Math.fround), `vector ${index} reads back`);
  });
  t.equal(Buffer.from(list.data[0]?.embedding as string, 'base64').length, 4 * (vectors[0]?.length ?? 0), 'four bytes a value');
});

t.test('an answer with another number of vectors than inputs, or of another shape, is the upstream’s invalid answer', async (t) => {
  t.throws(() => answer(batchAnswer(), 'native.batchEmbed', parse({ input: questions.slice(0, 2) })), { statusCode: 502, code: 'upstream_invalid_response' });
  t.throws(() => answer(batchAnswer(), 'native.embed', parse({ input: 'Hello world' })), { statusCode: 502, code: 'upstream_invalid_response' });
  t.throws(() => answer({ embedding: { values: 'none' } }, 'native.embed', parse({ input: 'Hello world' })), { statusCode: 502, code: 'upstream_invalid_response' });
});
