import t from 'tap';
import { assertOpenAiSchema } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway } from './every-family-gateway.js';

// `/v1/models` and the OpenAI-format errors of the model routes against OpenAI's description.

const { gateway, postJson, call, upstreams } = await startEveryFamilyGateway(t);
const chat = { model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'hello' }] };

t.test('the model list matches ListModelsResponse, and one model Model', async (t) => {
  const list = await call({ method: 'GET', url: '/v1/models' });
  t.equal(list.statusCode, 200);
  t.ok(list.json().data.length > 10, 'every family’s models are listed');
  const one = await call({ method: 'GET', url: '/v1/models/gp-5.4' });
  t.equal(one.statusCode, 200);
  assertOpenAiSchema(t, 'ListModelsResponse', [list.json()], { what: 'the model list' });
  assertOpenAiSchema(t, 'Model', [one.json()], { what: 'one model' });
});

t.test('400, 401, 404 and 429 on the OpenAI-format routes match ErrorResponse', async (t) => {
  const errors: Array<[number, Awaited<ReturnType<typeof call>>]> = [
    [400, await postJson('/v1/chat/completions', { model: 'gx-2.5-pro' })],
    [400, await postJson('/v1/responses', { model: 'gp-5.4', input: 'x', temperature: 9 })],
    [400, await postJson('/v1/videos', { model: 'sr-2', prompt: 'x', size: '1792x1024' })],
    [400, await postJson('/v1/audio/speech', { model: 'tts-1', input: 'x', voice: 'nobody' })],
    [401, await gateway.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(chat) })],
    [401, await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: 'Bearer sk-wrong' } })],
    [404, await postJson('/v1/chat/completions', { ...chat, model: 'no-such-model' })],
    [404, await call({ method: 'GET', url: '/v1/models/no-such-model' })],
    [404, await call({ method: 'GET', url: '/v1/videos/video_000000000000000000000000' })],
  ];
  upstreams.gx.fake.next({ error: 429 });
  errors.push([429, await postJson('/v1/chat/completions', chat)]);
  upstreams.openai.fake.next({ error: 429 });
  errors.push([429, await postJson('/v1/responses', { model: 'gp-5.4', input: 'x' })]);
  for (const [status, response] of errors) t.equal(response.statusCode, status, `${status}: ${response.json().error?.message}`);
  assertOpenAiSchema(
    t,
    'ErrorResponse',
    errors.map(([, response]) => response.json()),
    { what: 'the error bodies' },
  );
});
