import t, { type Test } from 'tap';
import { assertOpenAiSchema, openAiSchemaAllowances as allowances } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway } from './every-family-gateway.js';

// POST /v1/embeddings on the gx embedding model (served by the native embed calls through the
// embeddings-to-native translator) against OpenAI's CreateEmbeddingResponse, float and base64.

const { postJson } = await startEveryFamilyGateway(t);

async function embeddings(t: Test, bodies: Array<Record<string, unknown>>): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const body of bodies) {
    const response = await postJson('/v1/embeddings', { model: 'text-embedding-004', ...body });
    t.equal(response.statusCode, 200, `${JSON.stringify(body)} answers 200`);
    answers.push(response.json());
  }
  return answers;
}

t.test('float embeddings, one input and a batch, match CreateEmbeddingResponse', async (t) => {
  const bodies = await embeddings(t, [{ input: 'hello world' }, { input: ['first text', 'second text'], encoding_format: 'float', dimensions: 4 }]);
  t.match(bodies, [{ data: [{ embedding: Array }] }, { data: [{ index: 0, embedding: Array }, { index: 1, embedding: Array }] }]);
  assertOpenAiSchema(t, 'CreateEmbeddingResponse', bodies, { what: 'float embedding answers' });
});

t.test('base64 embeddings match CreateEmbeddingResponse, but for the string each vector is', async (t) => {
  const bodies = await embeddings(t, [{ input: 'hello world', encoding_format: 'base64' }, { input: ['one', 'two', 'three'], encoding_format: 'base64' }]);
  t.match(bodies, [{ data: [{ embedding: String }] }, { data: [{ embedding: String }, { embedding: String }, { embedding: String }] }]);
  assertOpenAiSchema(t, 'CreateEmbeddingResponse', bodies, { what: 'base64 embedding answers', allow: [allowances.embeddingBase64String] });
});
