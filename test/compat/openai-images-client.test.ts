import OpenAI, { BadRequestError, toFile } from 'openai';
import t from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { imagesBehaviours, pngDimensions, recordedForm, solidPng } from '../fakes/openai/images-answer.js';
import { startCompatGateway } from './compat-gateway.js';

const upstreamKey = 'gi-compat-upstream-key';
const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const gateway = await startCompatGateway(t, {
  providers: [{ name: 'gi-main', plugin: 'gi', base_url: upstream.url, api_key: upstreamKey, models: ['gi-2'], model_map: { 'gi-2': 'gpt-image-2' } }],
  pricing: { 'gi-2': { per_image: 0.04 } },
});

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

t.test('images.generate returns the images as b64_json with usage', async (t) => {
  const result = await client.images.generate({ model: 'gi-2', prompt: 'two paper boats', n: 2, size: '1536x1024' });
  t.equal(result.data?.length, 2);
  for (const image of result.data ?? []) t.strictSame(pngDimensions(Buffer.from(image.b64_json ?? '', 'base64')), { width: 16, height: 16 });
  t.equal(result.size, '1536x1024');
  t.ok((result.usage?.output_tokens ?? 0) > 0);
  t.equal(result.usage?.total_tokens, (result.usage?.input_tokens ?? 0) + (result.usage?.output_tokens ?? 0));
  t.match(upstream.requests.at(-1)!.json, { model: 'gpt-image-2', n: 2, size: '1536x1024' });
});

t.test('images.edit sends the file as multipart and it reaches the upstream intact', async (t) => {
  const png = solidPng(24, 24, [200, 30, 90]);
  const result = await client.images.edit({ model: 'gi-2', image: await toFile(png, 'in.png', { type: 'image/png' }), prompt: 'make it blue' });
  t.equal(result.data?.length, 1);
  t.type(result.data?.[0]?.b64_json, 'string');
  const sent = upstream.requests.at(-1)!;
  t.equal(sent.path, '/v1/images/edits');
  const form = await recordedForm(sent);
  const files = form.getAll('image[]') as File[];
  t.equal(files.length, 1);
  t.equal(files[0]!.name, 'in.png');
  t.strictSame(Buffer.from(await files[0]!.arrayBuffer()), png, 'the same bytes');
  t.equal(form.get('prompt'), 'make it blue');
});

t.test('n above 10 is a BadRequestError', async (t) => {
  const error = await client.images.generate({ model: 'gi-2', prompt: 'too many', n: 11 }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.equal((error as BadRequestError).code, 'invalid_request');
  t.match((error as BadRequestError).message, /n: expected at most 10/);
});

t.test('a blocked prompt is a BadRequestError with code prompt_blocked', async (t) => {
  upstream.next(imagesBehaviours.moderationBlocked());
  const error = await client.images.generate({ model: 'gi-2', prompt: 'something forbidden' }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.equal((error as BadRequestError).code, 'prompt_blocked');
});
