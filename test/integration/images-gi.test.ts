import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream, type RecordedRequest } from '../fakes/openai/fake-openai-upstream.js';
import { fakeImagePng, imagesBehaviours, pngDimensions, recordedForm, solidPng } from '../fakes/openai/images-answer.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// gi-2 costs 0.04 USD per image: at 500000 quota units per USD, 20000 units per image.
const unitsPerImage = 20_000;
const pricing = { ...scenarioPricing, 'gi-2': { per_image: 0.04 }, 'gi-legacy': { per_image: 0.02 } };
const upstreamKey = 'gi-upstream-key';

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

function giChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'gi', base_url: baseUrl, api_key: upstreamKey, models: ['gi-2'], model_map: { 'gi-2': 'gpt-image-2' }, groups: ['default'], ...fields };
}

/** A web server with reference images for the media guard to fetch. */
async function startImageHost(t: Test): Promise<{ url: string; png: Buffer; jpeg: Buffer; hits: string[] }> {
  const png = solidPng(32, 32, [10, 120, 200]);
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/ref.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (request.url === '/photo.jpg') response.writeHead(200, { 'content-type': 'image/jpg' }).end(jpeg);
    else if (request.url === '/anim.gif') response.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('GIF89a'));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, png, jpeg, hits };
}

interface Scenario {
  gateway: TestApp;
  token: IssuedToken;
  main: FakeOpenAiUpstream;
  backup: FakeOpenAiUpstream;
}

/** Two gi channels (main first, backup second), a gi-legacy channel on main, reference images allowed from loopback. */
async function scenario(t: Test, media: Record<string, unknown> = { allow_private_networks: true }): Promise<Scenario> {
  const main = await startOpenAi(t);
  const backup = await startOpenAi(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    security: { encryption_key: testEncryptionKey, media },
    routing: { circuit_breaker: { failure_threshold: 1000 } },
    providers: [
      giChannel('gi-main', main.url, { priority: 10 }),
      giChannel('gi-backup', backup.url, { priority: 0 }),
      giChannel('gi-legacy', main.url, { models: ['gi-legacy'], model_map: { 'gi-legacy': 'gpt-image-1' } }),
    ],
  });
  return { gateway, token: await issueToken(t, gateway), main, backup };
}

function postJson(s: Scenario, path: string, body: unknown) {
  return s.gateway.app.inject({ method: 'POST', url: path, headers: { ...s.token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

async function postForm(s: Scenario, path: string, form: FormData) {
  const serialized = new Response(form);
  const payload = Buffer.from(await serialized.arrayBuffer());
  return s.gateway.app.inject({ method: 'POST', url: path, headers: { ...s.token.bearer, 'content-type': serialized.headers.get('content-type')! }, payload });
}

const generate = (s: Scenario, body: Record<string, unknown>) => postJson(s, '/v1/images/generations', { model: 'gi-2', prompt: 'a lighthouse at dusk', ...body });

/** The quota units the token spent while `run` ran. */
async function spent(t: Test, s: Scenario, run: () => Promise<unknown>): Promise<number> {
  const before = await storedToken(s.gateway, s.token);
  await run();
  const after = await storedToken(s.gateway, s.token);
  t.equal(after.remain_quota - before.remain_quota, -(after.used_quota - before.used_quota), 'remain_quota falls by what used_quota rises');
  return after.used_quota - before.used_quota;
}

async function uploadedImages(request: RecordedRequest): Promise<Array<{ name: string; type: string; bytes: Buffer }>> {
  const files = (await recordedForm(request)).getAll('image[]') as File[];
  return Promise.all(files.map(async (file) => ({ name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) })));
}

const decodedImages = (body: { data: Array<{ b64_json: string }> }) => body.data.map((item) => Buffer.from(item.b64_json, 'base64'));

t.test('text-to-image on /v1/images/generations', async (t) => {
  const s = await scenario(t);

  t.test('n images come back as b64_json with the upstream usage, and each is billed', async (t) => {
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, { n: 2, size: '1536x1024', quality: 'medium' });
    });
    t.equal(response!.statusCode, 200);
    t.match(response!.headers['content-type'], /application\/json/);
    const body = response!.json();
    t.match(body, { created: Number, background: 'opaque', output_format: 'png', quality: 'medium', size: '1536x1024' });
    t.strictSame(decodedImages(body).map((image) => pngDimensions(image)), [{ width: 16, height: 16 }, { width: 16, height: 16 }], 'two real PNGs');
    t.match(body.usage, { input_tokens: 4, input_tokens_details: { text_tokens: 4, image_tokens: 0 }, output_tokens: 2 * 1584, total_tokens: 4 + 2 * 1584 });
    t.equal(body.data[0].url, undefined, 'no url is added');
    t.equal(units, 2 * unitsPerImage, 'two images at per_image');

    const sent = s.main.requests.at(-1)!;
    t.equal(sent.path, '/v1/images/generations');
    t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
    t.strictSame(sent.json, { model: 'gpt-image-2', prompt: 'a lighthouse at dusk', n: 2, size: '1536x1024', quality: 'medium' });
  });

  t.test('the spec defaults go upstream explicitly: one image, 1024x1024, high quality', async (t) => {
    const response = await generate(s, {});
    t.equal(response.statusCode, 200);
    t.strictSame(s.main.requests.at(-1)!.json, { model: 'gpt-image-2', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1024', quality: 'high' });
    t.equal(response.json().data.length, 1);
  });

  t.test("a client's response_format is never forwarded (the upstream refuses it) and the answer is b64_json anyway", async (t) => {
    for (const format of ['url', 'b64_json']) {
      const response = await generate(s, { response_format: format });
      t.equal(response.statusCode, 200, format);
      t.equal(s.main.requests.at(-1)!.json && 'response_format' in (s.main.requests.at(-1)!.json as object), false, format);
      t.type(response.json().data[0].b64_json, 'string');
    }
  });

  t.test('free sizes within the bounds, output options and input_fidelity: what the upstream gets', async (t) => {
    const response = await generate(s, { size: '2048x1152', background: 'transparent', output_format: 'webp', output_compression: 70, moderation: 'low', input_fidelity: 'high', user: 'u-9' });
    t.equal(response.statusCode, 200);
    t.strictSame(s.main.requests.at(-1)!.json, {
      model: 'gpt-image-2',
      prompt: 'a lighthouse at dusk',
      n: 1,
      size: '2048x1152',
      quality: 'high',
      background: 'transparent',
      output_format: 'webp',
      output_compression: 70,
      user: 'u-9',
      moderation: 'low',
    });
  });

  t.test("an upstream that refuses a size is the client's 400 invalid_request with its message, not billed, not retried", async (t) => {
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const backupCalls = s.backup.requests.length;
    const units = await spent(t, s, async () => {
      response = await postJson(s, '/v1/images/generations', { model: 'gi-legacy', prompt: 'x', size: '2048x1152' });
    });
    t.equal(response!.statusCode, 400);
    t.strictSame(response!.json(), { error: { message: response!.json().error.message, type: 'invalid_request_error', code: 'invalid_request' } });
    t.match(response!.json().error.message, /Invalid value: '2048x1152'/);
    t.equal(s.main.requests.at(-1)!.json && (s.main.requests.at(-1)!.json as { model: string }).model, 'gpt-image-1');
    t.equal(units, 0);
    t.equal(s.backup.requests.length, backupCalls);
  });
});

t.test('reference images: fetched through the media guard and sent to /images/edits as image[] files', async (t) => {
  const s = await scenario(t);
  const host = await startImageHost(t);

  t.test('a URL on generations makes an image-to-image edit with the fetched bytes', async (t) => {
    const response = await generate(s, { image: `${host.url}/ref.png`, input_fidelity: 'medium', n: 2 });
    t.equal(response.statusCode, 200);
    t.equal(response.json().data.length, 2);
    const sent = s.main.requests.at(-1)!;
    t.equal(sent.path, '/v1/images/edits');
    t.match(sent.headers['content-type'], /^multipart\/form-data; boundary=/);
    const form = await recordedForm(sent);
    t.strictSame(
      [...form.entries()].filter(([, value]) => typeof value === 'string'),
      [
        ['model', 'gpt-image-2'],
        ['prompt', 'a lighthouse at dusk'],
        ['n', '2'],
        ['size', '1024x1024'],
        ['quality', 'high'],
        ['input_fidelity', 'low'],
      ],
      'medium fidelity goes out as low',
    );
    t.strictSame(await uploadedImages(sent), [{ name: 'image-1.png', type: 'image/png', bytes: host.png }]);
  });

  t.test('images mixes URLs and data URIs in order; image/jpg is sent as image/jpeg', async (t) => {
    const inline = fakeImagePng(5);
    const response = await postJson(s, '/v1/images/edits', {
      model: 'gi-2',
      prompt: 'blend them',
      images: [`data:image/png;base64,${inline.toString('base64')}`, `${host.url}/photo.jpg`],
      input_fidelity: 'high',
    });
    t.equal(response.statusCode, 200);
    const sent = s.main.requests.at(-1)!;
    t.strictSame(await uploadedImages(sent), [
      { name: 'image-1.png', type: 'image/png', bytes: inline },
      { name: 'image-2.jpg', type: 'image/jpeg', bytes: host.jpeg },
    ]);
    t.equal((await recordedForm(sent)).get('input_fidelity'), 'high');
    t.equal(response.json().usage.input_tokens_details.image_tokens, 2 * 4160, 'the upstream saw two images at high fidelity');
  });

  t.test('a multipart edit forwards its image[] files and mask byte for byte, with the form fields', async (t) => {
    const first = solidPng(20, 20, [1, 2, 3]);
    const second = solidPng(24, 24, [4, 5, 6]);
    const mask = solidPng(20, 20, [0, 0, 0]);
    const form = new FormData();
    form.append('model', 'gi-2');
    form.append('prompt', 'swap the colours');
    form.append('n', '3');
    form.append('quality', 'low');
    form.append('input_fidelity', 'auto');
    form.append('image[]', new Blob([first], { type: 'image/png' }), 'first.png');
    form.append('image[]', new Blob([second], { type: 'application/octet-stream' }), 'second.png');
    form.append('mask', new Blob([mask], { type: 'image/png' }), 'mask.png');
    let response: Awaited<ReturnType<typeof postForm>> | undefined;
    const units = await spent(t, s, async () => {
      response = await postForm(s, '/v1/images/edits', form);
    });
    t.equal(response!.statusCode, 200);
    t.equal(response!.json().data.length, 3);
    t.equal(units, 3 * unitsPerImage);
    const sent = s.main.requests.at(-1)!;
    const forwarded = await recordedForm(sent);
    t.strictSame(await uploadedImages(sent), [
      { name: 'first.png', type: 'image/png', bytes: first },
      { name: 'second.png', type: 'image/png', bytes: second },
    ], 'the octet-stream file is sent as the PNG its bytes show');
    const forwardedMask = forwarded.get('mask') as File;
    t.strictSame(Buffer.from(await forwardedMask.arrayBuffer()), mask);
    t.equal(forwarded.get('n'), '3');
    t.equal(forwarded.get('quality'), 'low');
    t.equal(forwarded.get('input_fidelity'), null, 'auto leaves the fidelity to the upstream');
  });

  t.test('an edit without any image is refused before any upstream call', async (t) => {
    const calls = s.main.requests.length;
    const response = await postJson(s, '/v1/images/edits', { model: 'gi-2', prompt: 'edit what?' });
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { code: 'invalid_request', type: 'invalid_request_error', message: /^image: an edit needs the image to edit/ } });
    t.equal(s.main.requests.length, calls);
  });

  t.test('a reference of another type, or one that cannot be fetched, is a 400 naming the field', async (t) => {
    const gif = await generate(s, { images: [`${host.url}/ref.png`, `${host.url}/anim.gif`] });
    t.equal(gif.statusCode, 400);
    t.match(gif.json(), { error: { code: 'invalid_request', message: /^images\[1\]: the media is image\/gif, which is not accepted here/ } });
    const missing = await generate(s, { image: `${host.url}/gone.png` });
    t.equal(missing.statusCode, 400);
    t.match(missing.json(), { error: { code: 'invalid_request', message: /^image: / } });
  });
});

t.test('a private reference URL is refused unless the operator allows private networks', async (t) => {
  const s = await scenario(t, {});
  const host = await startImageHost(t);
  let response: Awaited<ReturnType<typeof generate>> | undefined;
  const units = await spent(t, s, async () => {
    response = await generate(s, { image: `${host.url}/ref.png` });
  });
  t.equal(response!.statusCode, 400);
  t.match(response!.json(), { error: { code: 'invalid_request', type: 'invalid_request_error', message: /^image: the media URL points to a private, loopback/ } });
  t.equal(s.main.requests.length + s.backup.requests.length, 0, 'no upstream call');
  t.equal(units, 0);
  const inline = await generate(s, { image: `data:image/png;base64,${fakeImagePng(0).toString('base64')}` });
  t.equal(inline.statusCode, 200, 'a data URI needs no fetch');
});

t.test('every field rule: a wrong value is 400 invalid_request in the images shape, naming the field, before any upstream call', async (t) => {
  const s = await scenario(t);
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['/v1/images/generations', { prompt: undefined }, /^prompt: required$/],
    ['/v1/images/generations', { prompt: '' }, /^prompt: must not be empty/],
    ['/v1/images/generations', { n: 11 }, /^n: expected at most 10/],
    ['/v1/images/generations', { n: 0 }, /^n: /],
    ['/v1/images/generations', { size: '512x512' }, /^size: the image must have at least 655,360 pixels/],
    ['/v1/images/generations', { size: '1000x1000' }, /^size: both sides must be multiples of 16/],
    ['/v1/images/generations', { size: '4096x2304' }, /^size: each side may be at most 3840 pixels/],
    ['/v1/images/generations', { size: 'big' }, /^size: expected 1024x1024/],
    ['/v1/images/generations', { quality: 'hd' }, /^quality: expected low, medium, high or auto/],
    ['/v1/images/generations', { input_fidelity: 'max' }, /^input_fidelity: expected low, medium, high or auto/],
    ['/v1/images/generations', { response_format: 'png' }, /^response_format: expected b64_json or url/],
    ['/v1/images/generations', { image: 'not a url' }, /^image: expected an http\(s\) URL or a data: URI/],
    ['/v1/images/generations', { images: 'https://example.com/a.png' }, /^images: expected a list/],
    ['/v1/images/generations', { images: ['https://example.com/a.png', 7] }, /^images\[1\]: /],
    ['/v1/images/generations', { output_compression: 101 }, /^output_compression: expected at most 100/],
    ['/v1/images/generations', { stream: true }, /^stream: streamed image generation is not offered/],
    ['/v1/images/generations', { style: 'vivid' }, /^unknown field "style"/],
    ['/v1/images/edits', { images: [] }, /^image: an edit needs the image to edit/],
  ];
  for (const [path, fields, message] of cases) {
    let response: Awaited<ReturnType<typeof postJson>> | undefined;
    const units = await spent(t, s, async () => {
      response = await postJson(s, path, { model: 'gi-2', prompt: 'a lighthouse at dusk', ...fields });
    });
    const label = `${path} ${JSON.stringify(fields)}`;
    t.equal(response!.statusCode, 400, label);
    t.strictSame(Object.keys(response!.json().error), ['message', 'type', 'code'], label);
    t.match(response!.json(), { error: { type: 'invalid_request_error', code: 'invalid_request', message } }, label);
    t.equal(units, 0, `${label}: nothing charged`);
  }
  t.equal(s.main.requests.length + s.backup.requests.length, 0, 'no request reached an upstream');

  const form = new FormData();
  form.append('model', 'gi-2');
  form.append('prompt', 'x');
  form.append('n', '11');
  form.append('image[]', new Blob([fakeImagePng(0)], { type: 'image/png' }), 'a.png');
  const multipart = await postForm(s, '/v1/images/edits', form);
  t.equal(multipart.statusCode, 400);
  t.match(multipart.json(), { error: { code: 'invalid_request', message: /^n: expected at most 10/ } }, 'multipart fields follow the same rules');

  const gifForm = new FormData();
  gifForm.append('model', 'gi-2');
  gifForm.append('prompt', 'x');
  gifForm.append('image[]', new Blob([Buffer.from('GIF89a....')], { type: 'image/gif' }), 'a.gif');
  const gif = await postForm(s, '/v1/images/edits', gifForm);
  t.match(gif.json(), { error: { code: 'invalid_request', message: /^image\[\]: the file "a.gif" is not a png, jpeg or webp image/ } });
});

t.test('billing and failures', async (t) => {
  const s = await scenario(t);

  t.test('quota is reserved for all n images: a token that cannot pay for them is refused with 402', async (t) => {
    const poor = await issueToken(t, s.gateway, { remain_quota: Math.floor(1.5 * unitsPerImage) });
    const post = (body: Record<string, unknown>) =>
      s.gateway.app.inject({ method: 'POST', url: '/v1/images/generations', headers: { ...poor.bearer, 'content-type': 'application/json' }, payload: JSON.stringify({ model: 'gi-2', prompt: 'x', ...body }) });
    const calls = s.main.requests.length;
    const two = await post({ n: 2 });
    t.equal(two.statusCode, 402);
    t.match(two.json(), { error: { code: 'insufficient_quota' } });
    const invalid = await post({ n: 11 });
    t.equal(invalid.statusCode, 400, 'a request gi refuses is a 400 before the quota is looked at');
    t.equal(s.main.requests.length, calls, 'neither reached the upstream');
    const one = await post({ n: 1 });
    t.equal(one.statusCode, 200);
    t.equal((await storedToken(s.gateway, poor)).used_quota, unitsPerImage);
  });

  t.test('only the images the upstream actually returned are billed', async (t) => {
    s.main.next(imagesBehaviours.images(1));
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, { n: 3 });
    });
    t.equal(response!.statusCode, 200);
    t.equal(response!.json().data.length, 1);
    t.equal(units, unitsPerImage);
  });

  t.test('a prompt the upstream blocks is 400 prompt_blocked, not charged and not tried elsewhere', async (t) => {
    s.main.next(imagesBehaviours.moderationBlocked());
    const backupCalls = s.backup.requests.length;
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, { n: 4 });
    });
    t.equal(response!.statusCode, 400);
    t.strictSame(response!.json(), { error: { message: response!.json().error.message, type: 'invalid_request_error', code: 'prompt_blocked' } });
    t.match(response!.json().error.message, /safety system/);
    t.equal(units, 0);
    t.equal(s.backup.requests.length, backupCalls);
  });

  t.test('no image from any channel is 502 empty_response, not charged', async (t) => {
    s.main.next(imagesBehaviours.noImages());
    s.backup.next(imagesBehaviours.noImages());
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, { n: 2 });
    });
    t.equal(response!.statusCode, 502);
    t.strictSame(response!.json(), { error: { message: response!.json().error.message, type: 'server_error', code: 'empty_response' } });
    t.equal(units, 0);
    t.strictSame(lastAttempts(s.gateway), ['gi-main:failed', 'gi-backup:failed']);
  });

  t.test('no image from the first channel moves on to the next', async (t) => {
    s.main.next(imagesBehaviours.noImages());
    const units = await spent(t, s, async () => {
      t.equal((await generate(s, {})).statusCode, 200);
    });
    t.equal(units, unitsPerImage);
    t.strictSame(lastAttempts(s.gateway), ['gi-main:failed', 'gi-backup:success']);
  });

  t.test('an upstream 5xx fails over to the second channel, which is billed once', async (t) => {
    s.main.next({ error: 500 });
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, { n: 2 });
    });
    t.equal(response!.statusCode, 200);
    t.equal(response!.json().data.length, 2);
    t.equal(units, 2 * unitsPerImage);
    t.strictSame(lastAttempts(s.gateway), ['gi-main:failed', 'gi-backup:success']);
    t.strictSame(s.backup.requests.at(-1)!.json, s.main.requests.at(-1)!.json, 'the same request on both channels');
  });

  t.test('an edit fails over with its reference images, fetched once', async (t) => {
    const host = await startImageHost(t);
    s.main.next({ error: 503 });
    const response = await postJson(s, '/v1/images/edits', { model: 'gi-2', prompt: 'x', image: `${host.url}/ref.png` });
    t.equal(response.statusCode, 200);
    t.strictSame((await uploadedImages(s.backup.requests.at(-1)!)).map((image) => image.bytes), [host.png]);
    t.strictSame(host.hits, ['/ref.png'], 'one download for both channels');
  });

  t.test('every channel failing is 503 bad_response, not charged', async (t) => {
    s.main.next({ error: 502 });
    s.backup.next({ error: 503 });
    let response: Awaited<ReturnType<typeof generate>> | undefined;
    const units = await spent(t, s, async () => {
      response = await generate(s, {});
    });
    t.equal(response!.statusCode, 503);
    t.match(response!.json(), { error: { code: 'bad_response', type: 'server_error' } });
    t.equal(units, 0);
  });
});
