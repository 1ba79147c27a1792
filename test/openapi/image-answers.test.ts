import t, { type Test } from 'tap';
import { assertOpenAiSchema, openAiSchemaAllowances as allowances } from '../helpers/openai-schema.js';
import { solidPng } from '../fakes/openai/images-answer.js';
import { startEveryFamilyGateway } from './every-family-gateway.js';

// The image routes of every image family (gx, gi, dsr, qi), generations and edits, against
// OpenAI's ImagesResponse, and their errors against ErrorResponse.

const { postJson, postForm, upstreams } = await startEveryFamilyGateway(t);
const png = solidPng(16, 16, [20, 120, 200]);
const pngDataUri = `data:image/png;base64,${png.toString('base64')}`;

async function answers(t: Test, requests: Array<{ route?: 'generations' | 'edits'; body: Record<string, unknown> }>): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const { route = 'generations', body } of requests) {
    const response = await postJson(`/v1/images/${route}`, body);
    t.equal(response.statusCode, 200, `${body.model} ${route}`);
    bodies.push(response.json());
  }
  return bodies;
}

t.test('gx image answers match ImagesResponse, with their empty url', async (t) => {
  const bodies = await answers(t, [
    { body: { model: 'gx-2.5-flash-image', prompt: 'a lighthouse at dusk' } },
    { body: { model: 'gx-2.5-flash-image', prompt: 'a lighthouse at dusk', response_modalities: 'image-text' } },
    { route: 'edits', body: { model: 'gx-2.5-flash-image', prompt: 'make it blue', image: pngDataUri } },
  ]);
  t.match(bodies, [{ data: [{ b64_json: String, url: '' }], usage: { input_tokens_details: Object } }]);
  assertOpenAiSchema(t, 'ImagesResponse', bodies, { what: 'gx image answers', allow: [allowances.gxImageEmptyUrl] });
});

t.test('gi image answers match ImagesResponse, JSON generations and multipart edits', async (t) => {
  const bodies = await answers(t, [{ body: { model: 'gi-2', prompt: 'two paper boats', n: 2, size: '1536x1024', quality: 'low' } }]);
  const form = new FormData();
  form.set('model', 'gi-2');
  form.set('prompt', 'make it blue');
  form.append('image[]', new Blob([png], { type: 'image/png' }), 'in.png');
  const edit = await postForm('/v1/images/edits', form);
  t.equal(edit.statusCode, 200);
  assertOpenAiSchema(t, 'ImagesResponse', [...bodies, edit.json()], { what: 'gi image answers' });
});

t.test('Seedream (dsr) answers match ImagesResponse: URLs, base64, a group and an edit, with the images usage', async (t) => {
  const bodies = await answers(t, [
    { body: { model: 'dsr-4-0-250828', prompt: 'a lighthouse at dusk', response_format: 'url' } },
    { body: { model: 'dsr-4-5-251128', prompt: 'a kite', response_format: 'b64_json', size: '4K' } },
    { body: { model: 'dsr-4-5-251128', prompt: 'four seasons', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } } },
    { route: 'edits', body: { model: 'dsr-4-0-250828', prompt: 'make it blue', image: pngDataUri } },
  ]);
  t.match(bodies[0], { usage: { input_tokens: 0, output_tokens: Number, input_tokens_details: { text_tokens: 0, image_tokens: 0 } } });
  assertOpenAiSchema(t, 'ImagesResponse', bodies, { what: 'Seedream image answers' });
});

t.test('qi answers match ImagesResponse: URLs, base64, an edit, and a newer model’s token usage', async (t) => {
  upstreams.dashscope.fake.next({ variant: 'current', usage: { image_count: 1, input_tokens: 11, output_tokens: 1024, size: '1328*1328', total_tokens: 1035 } });
  const bodies = await answers(t, [
    { body: { model: 'qi-plus', prompt: 'a lighthouse at dusk' } },
    { body: { model: 'qi-plus', prompt: 'a lighthouse at dusk' } },
    { body: { model: 'qi-plus', prompt: 'a lighthouse at dusk', response_format: 'b64_json' } },
    { route: 'edits', body: { model: 'qi-edit-plus', prompt: 'make it blue', image: pngDataUri } },
  ]);
  t.match(bodies[0], { usage: { total_tokens: 1035, input_tokens_details: Object } }, 'the newer variant’s tokens');
  t.match(bodies[2], { data: [{ b64_json: String }] });
  assertOpenAiSchema(t, 'ImagesResponse', bodies, { what: 'qi image answers' });
});

t.test('an image route’s errors match ErrorResponse, but for the param the product leaves out', async (t) => {
  const invalid = await postJson('/v1/images/generations', { model: 'gi-2', prompt: 'too many', n: 11 });
  const unknown = await postJson('/v1/images/generations', { model: 'no-such-image-model', prompt: 'x' });
  t.equal(invalid.statusCode, 400);
  t.equal(unknown.statusCode, 400);
  t.notOk('param' in invalid.json().error, 'the images error shape has no param');
  assertOpenAiSchema(t, 'ErrorResponse', [invalid.json(), unknown.json()], { what: 'image route errors', allow: [allowances.imagesErrorWithoutParam] });
});
