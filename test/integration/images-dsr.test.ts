import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { sampleJpeg, sampleJpegBase64, startFakeArkUpstream, type FakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// Seedream-style images cost 0.03 USD each: 15000 quota units at 500000 units per USD.
const unitsPerImage = 15_000;
const pricing = { ...scenarioPricing, 'dsr-*': { per_image: 0.03 }, 'dse-*': { per_image: 0.03 } };
const upstreamKey = 'ark-upstream-key';
const encryptionKey = 'test-encryption-key-0123456789abcdef';
const jpegDataUri = `data:image/jpeg;base64,${sampleJpegBase64}`;

const upstreamModels: Record<string, string> = {
  'dsr-3-0-t2i-250415': 'doubao-seedream-3-0-t2i-250415',
  'dse-3-0-i2i-250628': 'doubao-seededit-3-0-i2i-250628',
  'dsr-4-0-250828': 'doubao-seedream-4-0-250828',
  'dsr-4-5-251128': 'doubao-seedream-4-5-251128',
};

function dsrChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'dsr', base_url: baseUrl, api_key: upstreamKey, models: ['dsr-*', 'dse-*'], model_map: upstreamModels, groups: ['default'], ...fields };
}

async function startArk(t: Test): Promise<FakeArkUpstream> {
  const fake = await startFakeArkUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

/** A plain web server on 127.0.0.1 that serves a reference JPEG at /reference.jpeg. */
async function startImageHost(t: Test): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/reference.jpeg') response.writeHead(200, { 'content-type': 'image/jpeg' }).end(sampleJpeg);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (gateway: TestApp, token: IssuedToken, body: unknown, route: 'generations' | 'edits' = 'generations') =>
  gateway.app.inject({
    method: 'POST',
    url: `/v1/images/${route}`,
    headers: { ...token.bearer, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** The images error shape with its code, and the message it carries. */
function assertImagesError(t: Test, response: { statusCode: number; json(): any }, status: number, code: string): string {
  t.equal(response.statusCode, status, `HTTP ${status}`);
  const body = response.json();
  t.strictSame(Object.keys(body.error), ['message', 'type', 'code'], 'the images error shape');
  t.equal(body.error.code, code);
  return body.error.message as string;
}

t.test('Seedream-style models generate and edit images through an Ark-format upstream', async (t) => {
  const fake = await startArk(t);
  const imageHost = await startImageHost(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    security: { encryption_key: encryptionKey, media: { allow_private_networks: true } },
    providers: [dsrChannel('dsr-main', fake.url)],
  });
  const token = await issueToken(t, gateway);
  const sent = () => fake.requests.filter((request) => request.method === 'POST').at(-1)!;
  const sentJson = () => sent().json as Record<string, any>;
  const charged = async (run: () => Promise<void>): Promise<number> => {
    const before = await storedToken(gateway, token);
    await run();
    const after = await storedToken(gateway, token);
    t.equal(after.remain_quota + after.used_quota, before.remain_quota + before.used_quota, 'remain_quota and used_quota move together');
    return after.used_quota - before.used_quota;
  };

  t.test('text-to-image returns the upstream URL untouched, with the images usage, and bills one image', async (t) => {
    let body: any;
    const units = await charged(async () => {
      const response = await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'a lighthouse at dusk', size: '2560x1440', watermark: false, seed: 42 });
      t.equal(response.statusCode, 200);
      body = response.json();
    });
    t.equal(units, unitsPerImage);
    t.same(Object.keys(body), ['model', 'created', 'data', 'usage']);
    t.equal(body.model, 'dsr-4-0-250828', 'the model as the client named it');
    t.match(body.data, [{ url: new RegExp(`^${fake.url}/ark-content-generation/`), size: '2560x1440' }]);
    t.strictSame(
      body.usage,
      { total_tokens: 14400, input_tokens: 0, output_tokens: 14400, input_tokens_details: { text_tokens: 0, image_tokens: 0 }, output_tokens_details: { image_tokens: 14400, text_tokens: 0 } },
      'the upstream tokens as the images usage',
    );

    const request = sent();
    t.equal(request.path, '/api/v3/images/generations');
    t.equal(request.headers.authorization, `Bearer ${upstreamKey}`);
    t.strictSame(request.json, { model: 'doubao-seedream-4-0-250828', prompt: 'a lighthouse at dusk', size: '2560x1440', seed: 42, watermark: false, stream: false });
    t.notOk(
      fake.requests.some((recorded) => recorded.method === 'GET'),
      'the gateway never downloads the image',
    );
  });

  t.test('b64_json is asked of the upstream and its base64 passed on', async (t) => {
    const response = await post(gateway, token, { model: 'dsr-4-5-251128', prompt: 'a kite', response_format: 'b64_json', size: '4K' });
    t.equal(response.statusCode, 200);
    t.same(response.json().data, [{ b64_json: sampleJpegBase64, size: '4096x4096' }]);
    t.match(sent().json, { response_format: 'b64_json', size: '4K' });
  });

  t.test('a sequential group is billed for every image it produced', async (t) => {
    let body: any;
    const units = await charged(async () => {
      const response = await post(gateway, token, {
        model: 'dsr-4-5-251128',
        prompt: 'four seasons of one garden',
        sequential_image_generation: 'auto',
        sequential_image_generation_options: { max_images: 3 },
        optimize_prompt_options: { mode: 'standard' },
      });
      body = response.json();
    });
    t.equal(body.data.length, 3);
    t.equal(units, 3 * unitsPerImage);
    t.match(sent().json, { sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 }, optimize_prompt_options: { mode: 'standard' } });
  });

  t.test('a group without max_images asks for the default of 4', async (t) => {
    const units = await charged(async () => {
      const response = await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'a comic strip', sequential_image_generation: 'auto' });
      t.equal(response.json().data.length, 4);
    });
    t.equal(units, 4 * unitsPerImage);
    t.strictSame(sentJson().sequential_image_generation_options, { max_images: 4 });
  });

  t.test('a group that partly failed keeps the failed entry in data and bills only the images made', async (t) => {
    fake.next({ failedImages: [1] });
    let body: any;
    const units = await charged(async () => {
      const response = await post(gateway, token, {
        model: 'dsr-4-0-250828',
        prompt: 'three panels',
        sequential_image_generation: 'auto',
        sequential_image_generation_options: { max_images: 3 },
      });
      t.equal(response.statusCode, 200);
      body = response.json();
    });
    t.equal(units, 2 * unitsPerImage);
    t.match(body.data, [{ url: String }, { error: { code: 'OutputImageSensitiveContentDetected', message: String } }, { url: String }]);
  });

  t.test('an edit in contents form reaches the upstream as prompt and image, with the 3.0 guidance default', async (t) => {
    const units = await charged(async () => {
      const response = await post(
        gateway,
        token,
        { model: 'dse-3-0-i2i-250628', contents: [{ role: 'user', parts: [{ text: 'make the sky green' }, { image: jpegDataUri }] }] },
        'edits',
      );
      t.equal(response.statusCode, 200);
    });
    t.equal(units, unitsPerImage);
    t.strictSame(sent().json, { model: 'doubao-seededit-3-0-i2i-250628', prompt: 'make the sky green', image: jpegDataUri, guidance_scale: 2.5, stream: false });
  });

  t.test('reference URLs are fetched through the media guard and sent inline, several as an array', async (t) => {
    const response = await post(
      gateway,
      token,
      { model: 'dsr-4-5-251128', prompt: 'blend these', image: [`${imageHost}/reference.jpeg`, jpegDataUri] },
      'edits',
    );
    t.equal(response.statusCode, 200);
    t.strictSame(sentJson().image, [jpegDataUri, jpegDataUri], 'the fetched JPEG as a data URI, then the given one');
  });

  t.test('a 3.0 text-to-image request takes guidance_scale and sends it', async (t) => {
    const response = await post(gateway, token, { model: 'dsr-3-0-t2i-250415', prompt: 'a bowl of fruit', guidance_scale: 7.5, size: '1280x720' });
    t.equal(response.statusCode, 200);
    t.strictSame(sent().json, { model: 'doubao-seedream-3-0-t2i-250415', prompt: 'a bowl of fruit', size: '1280x720', guidance_scale: 7.5, stream: false });
  });

  t.test('a multipart edit takes the file from image[] and reads form text as booleans', async (t) => {
    const form = new FormData();
    form.append('model', 'dsr-4-0-250828');
    form.append('prompt', 'add a hat');
    form.append('watermark', 'false');
    form.append('optimize_prompt_options', '{"mode":"fast"}');
    form.append('image[]', new Blob([sampleJpeg], { type: 'image/jpeg' }), 'photo.jpg');
    const request = new Request('http://client.invalid/', { method: 'POST', body: form });
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/images/edits',
      headers: { ...token.bearer, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    t.equal(response.statusCode, 200, response.payload);
    t.strictSame(sent().json, { model: 'doubao-seedream-4-0-250828', prompt: 'add a hat', image: jpegDataUri, optimize_prompt_options: { mode: 'fast' }, watermark: false, stream: false });
  });

  t.test('every field rule of the spec is a 400 invalid_request naming the field, and nothing reaches the upstream', async (t) => {
    const cases: Array<[string, Record<string, unknown>, string, ('generations' | 'edits')?]> = [
      ['a 4.0 size outside the 2K and 4K lists', { model: 'dsr-4-0-250828', prompt: 'x', size: '1024x1024' }, 'size'],
      ['a 2K tier on a 3.0 model', { model: 'dsr-3-0-t2i-250415', prompt: 'x', size: '2K' }, 'size'],
      ['a 1K tier on a 4.x model', { model: 'dsr-4-5-251128', prompt: 'x', size: '1K' }, 'size'],
      ['a 4K size on a 3.0 model', { model: 'dse-3-0-i2i-250628', prompt: 'x', size: '4096x4096', image: jpegDataUri }, 'size'],
      ['a watermark that is not a boolean', { model: 'dsr-4-0-250828', prompt: 'x', watermark: 'yes' }, 'watermark'],
      ['a negative seed', { model: 'dsr-4-0-250828', prompt: 'x', seed: -1 }, 'seed'],
      ['a seed above 2147483647', { model: 'dsr-3-0-t2i-250415', prompt: 'x', seed: 2147483648 }, 'seed'],
      ['a fractional seed', { model: 'dsr-3-0-t2i-250415', prompt: 'x', seed: 1.5 }, 'seed'],
      ['guidance_scale below 1.0', { model: 'dsr-3-0-t2i-250415', prompt: 'x', guidance_scale: 0.5 }, 'guidance_scale'],
      ['guidance_scale above 10.0', { model: 'dse-3-0-i2i-250628', prompt: 'x', guidance_scale: 10.5, image: jpegDataUri }, 'guidance_scale'],
      ['guidance_scale on a 4.0 model', { model: 'dsr-4-0-250828', prompt: 'x', guidance_scale: 3 }, 'guidance_scale'],
      ['guidance_scale on a 4.5 model', { model: 'dsr-4-5-251128', prompt: 'x', guidance_scale: 3 }, 'guidance_scale'],
      ['an unknown sequential mode', { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation: 'always' }, 'sequential_image_generation'],
      ['sequential generation on a 3.0 model', { model: 'dsr-3-0-t2i-250415', prompt: 'x', sequential_image_generation: 'auto' }, 'sequential_image_generation'],
      [
        'max_images above 4',
        { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 5 } },
        'sequential_image_generation_options.max_images',
      ],
      [
        'max_images below 1',
        { model: 'dsr-4-5-251128', prompt: 'x', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 0 } },
        'sequential_image_generation_options.max_images',
      ],
      [
        'max_images with sequential generation disabled',
        { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation: 'disabled', sequential_image_generation_options: { max_images: 2 } },
        'sequential_image_generation_options',
      ],
      ['max_images without sequential generation', { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation_options: { max_images: 2 } }, 'sequential_image_generation_options'],
      ['an unknown option of the group', { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation: 'auto', sequential_image_generation_options: { count: 2 } }, 'sequential_image_generation_options.count'],
      ['fast prompt optimisation on 4.5', { model: 'dsr-4-5-251128', prompt: 'x', optimize_prompt_options: { mode: 'fast' } }, 'optimize_prompt_options.mode'],
      ['an unknown optimisation mode', { model: 'dsr-4-0-250828', prompt: 'x', optimize_prompt_options: { mode: 'turbo' } }, 'optimize_prompt_options.mode'],
      ['prompt optimisation on a 3.0 model', { model: 'dsr-3-0-t2i-250415', prompt: 'x', optimize_prompt_options: { mode: 'standard' } }, 'optimize_prompt_options'],
      ['no prompt', { model: 'dsr-4-0-250828' }, 'prompt'],
      ['an empty prompt', { model: 'dsr-4-0-250828', prompt: '   ' }, 'prompt'],
      ['contents without a text part', { model: 'dsr-4-0-250828', contents: [{ role: 'user', parts: [{ image: jpegDataUri }] }] }, 'contents'],
      ['contents together with prompt', { model: 'dsr-4-0-250828', prompt: 'x', contents: [{ role: 'user', parts: [{ text: 'y' }] }] }, 'contents'],
      ['a contents role other than user', { model: 'dsr-4-0-250828', contents: [{ role: 'model', parts: [{ text: 'y' }] }] }, 'contents[0].role'],
      ['a contents part that is neither text nor image', { model: 'dsr-4-0-250828', contents: [{ role: 'user', parts: [{ text: 'y' }, { video: 'v' }] }] }, 'contents[0].parts[1].video'],
      ['a contents part with both text and image', { model: 'dsr-4-0-250828', contents: [{ role: 'user', parts: [{ text: 'y', image: jpegDataUri }] }] }, 'contents[0].parts[0]'],
      ['n other than 1', { model: 'dsr-4-0-250828', prompt: 'x', n: 2 }, 'n'],
      ['a stream', { model: 'dsr-4-0-250828', prompt: 'x', stream: true }, 'stream'],
      ['a field the family does not know', { model: 'dsr-4-0-250828', prompt: 'x', style: 'anime' }, 'style'],
      ['a reference image for the 3.0 text-to-image model', { model: 'dsr-3-0-t2i-250415', prompt: 'x', image: jpegDataUri }, 'image'],
      ['no reference image for the 3.0 edit model', { model: 'dse-3-0-i2i-250628', prompt: 'x' }, 'image'],
      ['two reference images for the 3.0 edit model', { model: 'dse-3-0-i2i-250628', prompt: 'x', image: [jpegDataUri, jpegDataUri] }, 'image[1]'],
      ['fifteen reference images for a 4.x model', { model: 'dsr-4-0-250828', prompt: 'x', image: Array(15).fill(jpegDataUri) }, 'image[14]'],
      [
        'reference images plus the group over 15',
        { model: 'dsr-4-5-251128', prompt: 'x', image: Array(12).fill(jpegDataUri), sequential_image_generation: 'auto' },
        'sequential_image_generation_options.max_images',
      ],
      ['an edit without any reference image', { model: 'dsr-4-0-250828', prompt: 'x' }, 'image', 'edits'],
      ['a reference that is not a URL', { model: 'dsr-4-0-250828', prompt: 'x', image: 'just-a-name.png' }, 'image'],
      ['a reference that is not an image', { model: 'dsr-4-0-250828', prompt: 'x', image: 'data:text/plain;base64,aGVsbG8=' }, 'image'],
      [
        'a contents image that is not an image',
        { model: 'dsr-4-0-250828', contents: [{ role: 'user', parts: [{ text: 'y' }, { image: 'data:application/pdf;base64,JVBERi0=' }] }] },
        'contents[0].parts[1].image',
      ],
      ['an empty image string', { model: 'dsr-4-0-250828', prompt: 'x', image: '' }, 'image'],
    ];
    const before = fake.requests.length;
    const quota = await storedToken(gateway, token);
    for (const [name, body, field, route] of cases) {
      const response = await post(gateway, token, body, route);
      const message = assertImagesError(t, response, 400, 'invalid_request');
      t.ok(message.startsWith(`${field}: `) || message.startsWith(`unknown field "${field}"`), `${name}: "${message}" names ${field}`);
    }
    t.equal(fake.requests.length, before, 'no request reached the upstream');
    t.same(await storedToken(gateway, token), quota, 'nothing was charged');
  });

  t.test('a prompt the upstream blocks is 400 prompt_blocked, asked once, charged nothing', async (t) => {
    for (const kind of ['input_text', 'input_image', 'output_image'] as const) {
      fake.next({ blocked: kind });
      const before = fake.requests.length;
      const units = await charged(async () => {
        const message = assertImagesError(t, await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'something forbidden' }), 400, 'prompt_blocked');
        t.match(message, /SensitiveContentDetected/);
      });
      t.equal(units, 0, `${kind}: nothing charged`);
      t.equal(fake.requests.length, before + 1, `${kind}: not retried`);
    }
  });

  t.test('a group whose every image was blocked is prompt_blocked and charged nothing', async (t) => {
    fake.next({ failedImages: [0, 1] });
    const units = await charged(async () => {
      const response = await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'x', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 2 } });
      assertImagesError(t, response, 400, 'prompt_blocked');
    });
    t.equal(units, 0);
  });

  t.test('an answer without images is 502 empty_response and charged nothing', async (t) => {
    fake.next({ empty: true });
    const units = await charged(async () => {
      assertImagesError(t, await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'x' }), 502, 'empty_response');
    });
    t.equal(units, 0);
  });

  t.test("the upstream's own 400 comes back as invalid_request with its message", async (t) => {
    fake.next({ error: 400, code: 'InvalidParameter', param: 'prompt', message: 'The parameter `prompt` specified in the request is not valid: too long.' });
    const message = assertImagesError(t, await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'x' }), 400, 'invalid_request');
    t.match(message, /The parameter `prompt` specified in the request is not valid: too long\..*\(InvalidParameter\)/);
  });

  t.test('an upstream 429 is rate_limit_exceeded with Retry-After', async (t) => {
    fake.next({ error: 429, headers: { 'retry-after': '7' } });
    const response = await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'x' });
    assertImagesError(t, response, 429, 'rate_limit_exceeded');
    t.equal(response.headers['retry-after'], '7');
  });
});

t.test('without a media allowance a private reference URL is refused before the upstream is asked', async (t) => {
  const fake = await startArk(t);
  const imageHost = await startImageHost(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [dsrChannel('dsr-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const response = await post(gateway, token, {
    model: 'dsr-4-0-250828',
    contents: [{ role: 'user', parts: [{ text: 'restyle it' }, { image: `${imageHost}/reference.jpeg` }] }],
  });
  const message = assertImagesError(t, response, 400, 'invalid_request');
  t.match(message, /^contents\[0\]\.parts\[1\]\.image: the media URL points to a private, loopback/);
  t.equal(fake.requests.length, 0);
  t.match(await storedToken(gateway, token), { used_quota: 0 });
});

t.test("a channel whose key the upstream refuses is the gateway's 503 bad_response", async (t) => {
  const fake = await startArk(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [dsrChannel('dsr-main', fake.url, { api_key: 'wrong-key' })] });
  const token = await issueToken(t, gateway);
  assertImagesError(t, await post(gateway, token, { model: 'dsr-4-0-250828', prompt: 'x' }), 503, 'bad_response');
});

t.test('a failing or empty upstream moves the request to the next channel, billed once', async (t) => {
  const first = await startArk(t);
  const second = await startArk(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } },
    providers: [dsrChannel('dsr-first', first.url, { priority: 10 }), dsrChannel('dsr-second', second.url, { priority: 0 })],
  });
  const token = await issueToken(t, gateway);
  for (const behaviour of [{ error: 500 }, { error: 503 }, { empty: true }, { resetBeforeHeaders: true }]) {
    t.test(JSON.stringify(behaviour), async (t) => {
      first.next(behaviour);
      const before = await storedToken(gateway, token);
      const counts = { first: first.requests.length, second: second.requests.length };
      const response = await post(gateway, token, { model: 'dsr-4-5-251128', prompt: 'retry me' });
      t.equal(response.statusCode, 200);
      t.match(response.json().data, [{ url: new RegExp(`^${second.url}/`) }], 'the second channel made the image');
      t.equal(first.requests.length, counts.first + 1, 'the first channel was tried once');
      t.equal(second.requests.length, counts.second + 1, 'the second channel answered');
      t.strictSame(
        lastAttempts(gateway).map((attempt) => attempt.split(':')[0]),
        ['dsr-first', 'dsr-second'],
      );
      const after = await storedToken(gateway, token);
      t.equal(after.used_quota - before.used_quota, unitsPerImage, 'one image billed');
    });
  }

  t.test('when every channel fails the client gets 503 bad_response and is charged nothing', async (t) => {
    first.next({ error: 500 });
    second.next({ error: 500 });
    const before = await storedToken(gateway, token);
    assertImagesError(t, await post(gateway, token, { model: 'dsr-4-5-251128', prompt: 'x' }), 503, 'bad_response');
    t.same(await storedToken(gateway, token), before);
  });

  t.test('a blocked prompt is not tried on the next channel', async (t) => {
    first.next({ blocked: 'input_text' });
    const counts = { first: first.requests.length, second: second.requests.length };
    assertImagesError(t, await post(gateway, token, { model: 'dsr-4-5-251128', prompt: 'x' }), 400, 'prompt_blocked');
    t.equal(first.requests.length, counts.first + 1);
    t.equal(second.requests.length, counts.second);
  });
});
