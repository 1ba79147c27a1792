import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { fakeImagePng, imagesBehaviours, pngDimensions, recordedForm } from './images-answer.js';

const apiKey = 'openai-images-unit-key';

async function startFake(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function send(fake: FakeOpenAiUpstream, path: string, body: string | FormData, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, ...headers }, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const generate = (fake: FakeOpenAiUpstream, body: unknown) => send(fake, '/v1/images/generations', JSON.stringify(body), { 'content-type': 'application/json' });

function editForm(fields: Record<string, string>, files: Array<{ field?: string; name: string; bytes: Uint8Array; type: string }>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field ?? 'image[]', new Blob([file.bytes], { type: file.type }), file.name);
  return form;
}

const edit = (fake: FakeOpenAiUpstream, form: FormData) => send(fake, '/v1/images/edits', form);

const decoded = (answer: Answer): Buffer[] => (answer.json.data as Array<{ b64_json: string }>).map((item) => Buffer.from(item.b64_json, 'base64'));

t.test('generations answer n real PNGs as b64_json with gpt-image usage, in the recorded key order', async (t) => {
  const fake = await startFake(t);
  const answer = await generate(fake, { model: 'gpt-image-1', prompt: 'a red fox in snow', n: 2, size: '1024x1536', quality: 'medium' });
  t.equal(answer.status, 200);
  t.match(answer.headers.get('content-type'), /^application\/json/);
  t.match(answer.headers.get('x-request-id'), /^req_/);
  t.strictSame(Object.keys(answer.json), ['created', 'background', 'data', 'output_format', 'quality', 'size', 'usage']);
  t.match(answer.json, { background: 'opaque', output_format: 'png', quality: 'medium', size: '1024x1536' });
  t.ok(Number.isInteger(answer.json.created) && answer.json.created > 1_700_000_000, 'created is unix seconds');
  const images = decoded(answer);
  t.equal(images.length, 2);
  t.strictSame(images.map((image) => pngDimensions(image)), [{ width: 16, height: 16 }, { width: 16, height: 16 }], 'each one decodes as a PNG');
  t.notSame(images[0], images[1], 'the images differ');
  t.strictSame(answer.json.usage, {
    input_tokens: 5,
    input_tokens_details: { text_tokens: 5, image_tokens: 0 },
    output_tokens: 2 * 1584,
    output_tokens_details: { image_tokens: 2 * 1584, text_tokens: 0 },
    total_tokens: 5 + 2 * 1584,
  });
  t.equal(answer.text, JSON.stringify(answer.json, null, 2), 'pretty JSON, as OpenAI sends it');
});

t.test('defaults: one image, auto size and quality resolved to the square and high', async (t) => {
  const fake = await startFake(t);
  const answer = await generate(fake, { model: 'gpt-image-1', prompt: 'a cat' });
  t.equal(answer.json.data.length, 1);
  t.match(answer.json, { size: '1024x1024', quality: 'high', usage: { output_tokens: 4160 } });
});

t.test('response_format is refused as an unknown parameter, as gpt-image does', async (t) => {
  const fake = await startFake(t);
  for (const value of ['b64_json', 'url']) {
    const answer = await generate(fake, { model: 'gpt-image-1', prompt: 'x', response_format: value });
    t.equal(answer.status, 400);
    t.strictSame(answer.json, {
      error: { message: "Unknown parameter: 'response_format'.", type: 'invalid_request_error', param: 'response_format', code: 'unknown_parameter' },
    });
  }
});

t.test('edit-only fields are unknown on generations, and values are checked with OpenAI codes', async (t) => {
  const fake = await startFake(t);
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ input_fidelity: 'high' }, 'input_fidelity', 'unknown_parameter'],
    [{ n: 11 }, 'n', 'integer_above_max_value'],
    [{ n: 0 }, 'n', 'integer_below_min_value'],
    [{ n: '2' }, 'n', 'invalid_type'],
    [{ quality: 'ultra' }, 'quality', 'invalid_value'],
    [{ size: '512x512' }, 'size', 'invalid_value'],
    [{ output_compression: 101 }, 'output_compression', 'integer_above_max_value'],
  ];
  for (const [fields, param, code] of cases) {
    const answer = await generate(fake, { model: 'gpt-image-1', prompt: 'x', ...fields });
    t.equal(answer.status, 400, JSON.stringify(fields));
    t.match(answer.json, { error: { type: 'invalid_request_error', param, code } }, JSON.stringify(fields));
  }
  const missing = await generate(fake, { model: 'gpt-image-1' });
  t.match(missing.json, { error: { param: 'prompt', code: 'missing_required_parameter' } });
});

t.test('gpt-image-2 takes free sizes within its bounds; gpt-image-1 only the presets', async (t) => {
  const fake = await startFake(t);
  t.equal((await generate(fake, { model: 'gpt-image-1', prompt: 'x', size: '2048x1152' })).status, 400);
  const wide = await generate(fake, { model: 'gpt-image-2', prompt: 'x', size: '2048x1152' });
  t.equal(wide.status, 200);
  t.equal(wide.json.size, '2048x1152');
  t.equal(wide.json.usage.output_tokens, Math.ceil((4160 * 2048 * 1152) / (1024 * 1024)), 'output tokens scale with the pixels');
  for (const size of ['1000x1000', '3856x2160', '3840x1024', '512x512', '4096x4096']) {
    const refused = await generate(fake, { model: 'gpt-image-2', prompt: 'x', size });
    t.equal(refused.status, 400, size);
    t.match(refused.json, { error: { param: 'size', code: 'invalid_value' } }, size);
  }
});

t.test('a multipart edit takes repeated image[] files and the recorded request keeps their bytes', async (t) => {
  const fake = await startFake(t);
  const first = fakeImagePng(1);
  const second = fakeImagePng(2);
  const answer = await edit(
    fake,
    editForm({ model: 'gpt-image-1', prompt: 'put them side by side', n: '3', input_fidelity: 'high' }, [
      { name: 'a.png', bytes: first, type: 'image/png' },
      { name: 'b.png', bytes: second, type: 'image/png' },
    ]),
  );
  t.equal(answer.status, 200);
  t.equal(answer.json.data.length, 3, 'n from the form text');
  t.strictSame(answer.json.usage.input_tokens_details, { text_tokens: 5, image_tokens: 2 * 4160 }, 'two input images at high fidelity');

  const form = await recordedForm(fake.requests.at(-1)!);
  const files = form.getAll('image[]') as File[];
  t.strictSame(files.map((file) => file.name), ['a.png', 'b.png']);
  t.strictSame([Buffer.from(await files[0]!.arrayBuffer()), Buffer.from(await files[1]!.arrayBuffer())], [first, second]);
});

t.test('a single image file, as the official SDK sends it, is an edit at low fidelity by default', async (t) => {
  const fake = await startFake(t);
  const answer = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'add a hat' }, [{ field: 'image', name: 'in.png', bytes: fakeImagePng(0), type: 'image/png' }]));
  t.equal(answer.status, 200);
  t.equal(answer.json.usage.input_tokens_details.image_tokens, 272);
});

t.test('edits refuse a missing image, an unsupported file type, an unknown file field and a bad fidelity', async (t) => {
  const fake = await startFake(t);
  const missing = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'x' }, []));
  t.match(missing.json, { error: { param: 'image', code: 'missing_required_parameter' } });
  const gif = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'x' }, [{ name: 'a.gif', bytes: Buffer.from('GIF89a'), type: 'image/gif' }]));
  t.equal(gif.status, 400);
  t.match(gif.json, { error: { param: 'image', message: /unsupported mimetype \('image\/gif'\)/ } });
  const stray = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'x' }, [{ field: 'picture', name: 'a.png', bytes: fakeImagePng(0), type: 'image/png' }]));
  t.match(stray.json, { error: { param: 'picture', code: 'unknown_parameter' } });
  const fidelity = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'x', input_fidelity: 'medium' }, [{ name: 'a.png', bytes: fakeImagePng(0), type: 'image/png' }]));
  t.match(fidelity.json, { error: { param: 'input_fidelity', code: 'invalid_value' } });
  const format = await edit(fake, editForm({ model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' }, [{ name: 'a.png', bytes: fakeImagePng(0), type: 'image/png' }]));
  t.match(format.json, { error: { param: 'response_format', code: 'unknown_parameter' } });
});

t.test('a JSON edit takes images as [{image_url}]', async (t) => {
  const fake = await startFake(t);
  const dataUrl = `data:image/png;base64,${fakeImagePng(0).toString('base64')}`;
  const body = { model: 'gpt-image-1', prompt: 'x', images: [{ image_url: dataUrl }, { image_url: 'https://example.com/b.png' }] };
  const answer = await send(fake, '/v1/images/edits', JSON.stringify(body), { 'content-type': 'application/json' });
  t.equal(answer.status, 200);
  t.equal(answer.json.usage.input_tokens_details.image_tokens, 2 * 272);
  const bad = await send(fake, '/v1/images/edits', JSON.stringify({ ...body, images: ['https://example.com/b.png'] }), { 'content-type': 'application/json' });
  t.match(bad.json, { error: { param: 'images[0]', code: 'invalid_value' } });
});

t.test('behaviours: a moderation block, no images, a set count of images, replaced usage, and errors', async (t) => {
  const fake = await startFake(t);
  fake.next(imagesBehaviours.moderationBlocked());
  const blocked = await generate(fake, { model: 'gpt-image-1', prompt: 'x' });
  t.equal(blocked.status, 400);
  t.match(blocked.json, { error: { type: 'image_generation_user_error', code: 'moderation_blocked', param: null, message: /rejected by the safety system/ } });

  fake.next(imagesBehaviours.noImages());
  const empty = await generate(fake, { model: 'gpt-image-1', prompt: 'x' });
  t.equal(empty.status, 200);
  t.strictSame(empty.json.data, []);

  fake.next(imagesBehaviours.images(3));
  t.equal((await generate(fake, { model: 'gpt-image-1', prompt: 'x', n: 1 })).json.data.length, 3);

  const usage = { input_tokens: 1, input_tokens_details: { text_tokens: 1, image_tokens: 0 }, output_tokens: 2, total_tokens: 3 };
  fake.next({ usage });
  t.strictSame((await generate(fake, { model: 'gpt-image-1', prompt: 'x' })).json.usage, usage);

  fake.next({ error: 503 });
  const failed = await generate(fake, { model: 'gpt-image-1', prompt: 'x' });
  t.equal(failed.status, 503);
  t.match(failed.json, { error: { type: 'server_error' } });

  const unauthorised = await fetch(`${fake.url}/v1/images/generations`, { method: 'POST', body: '{}' });
  t.equal(unauthorised.status, 401);
  t.equal(fake.requests.length, 6, 'every request is recorded');
});
