import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { startFakeServer } from '../../core/testing/index.js';
import { tinyPngBase64, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import {
  gxChannel,
  gxUpstreamKey,
  issueToken,
  lastAttempts,
  scenarioGateway,
  scenarioPricing,
  startGx,
  storedToken,
  type IssuedToken,
} from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// Each image model costs 0.04 USD an image: 0.04 × 500000 = 20000 quota units.
const imageModels = ['gx-3-pro-image-preview', 'gx-3.1-flash-image-preview', 'gx-2.5-flash-image'];
const pricing = { ...scenarioPricing, ...Object.fromEntries(imageModels.map((model) => [model, { per_image: 0.04 }])) };
const unitsPerImage = 20_000;
const startingQuota = 5_000_000;

const png = Buffer.from(tinyPngBase64, 'base64');
const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(52)]);
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');

/** Media the gateway fetches reference images from, on loopback. */
async function startMediaServer(t: Test): Promise<string> {
  const files: Record<string, [string, Buffer]> = {
    '/cat.png': ['image/png', png],
    '/photo': ['application/octet-stream', jpeg],
    '/pic.bmp': ['image/bmp', bmp],
    '/anim': ['application/octet-stream', gif],
  };
  const server = await startFakeServer(({ request, response }) => {
    const file = files[request.path];
    if (file === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[0], 'content-length': String(file[1].length) }).end(file[1]);
  });
  t.teardown(() => server.close());
  return server.url;
}

const imagesChannel = (name: string, url: string, fields: Record<string, unknown> = {}) => gxChannel(name, url, { models: imageModels, ...fields });

/** A gateway with image prices whose channels are `channels`; loopback media allowed unless `privateMedia` is false. */
function imagesGateway(t: Test, channels: Record<string, unknown>[], privateMedia = true): Promise<TestApp> {
  const security = { encryption_key: testEncryptionKey, media: { allow_private_networks: privateMedia } };
  return scenarioGateway(t, { pricing, providers: channels, security });
}

function postImages(gateway: TestApp, token: IssuedToken | { bearer: Record<string, string> }, path: 'generations' | 'edits', body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url: `/v1/images/${path}`,
    headers: { ...token.bearer, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** Asserts the images error shape of spec part 2: exactly {error: {message, type, code}}. */
function isImagesError(t: Test, response: LightMyRequestResponse, status: number, code: string, message?: RegExp): void {
  t.equal(response.statusCode, status, `HTTP ${status}`);
  const body = response.json();
  t.strictSame(Object.keys(body), ['error']);
  t.strictSame(Object.keys(body.error), ['message', 'type', 'code']);
  t.equal(body.error.code, code);
  t.equal(body.error.type, status >= 500 ? 'server_error' : 'invalid_request_error');
  if (message !== undefined) t.match(body.error.message, message);
}

const lastSent = (fake: FakeGxUpstream) => fake.requests.at(-1)!.json as Record<string, any>;

t.test('vendor-G images through /v1/images/generations and /v1/images/edits', async (t) => {
  const fake = await startGx(t);
  const media = await startMediaServer(t);
  const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);

  t.test('text-to-image answers one b64_json image with an empty url, billed one image', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postImages(gateway, token, 'generations', { model: 'gx-3-pro-image-preview', prompt: 'a lighthouse at dusk' });
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /application\/json/);
    const body = response.json();
    t.strictSame(Object.keys(body), ['created', 'data', 'usage']);
    t.ok(Number.isInteger(body.created) && Math.abs(body.created - Date.now() / 1000) < 60, 'created is now, in Unix seconds');
    t.strictSame(body.data, [{ b64_json: tinyPngBase64, url: '' }]);
    t.strictSame(body.usage, {
      total_tokens: 1295,
      input_tokens: 5,
      output_tokens: 1290,
      input_tokens_details: { text_tokens: 5, image_tokens: 0 },
      output_tokens_details: { image_tokens: 1290, text_tokens: 0 },
    });

    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1beta/models/gx-3-pro-image-preview:generateContent', 'one non-stream generateContent call');
    t.equal(sent.headers['x-gx-api-key'], gxUpstreamKey);
    t.strictSame(sent.json, {
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse at dusk' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: '1K' } },
    });
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage, remain_quota: startingQuota - unitsPerImage });
  });

  t.test('edits take the same payload; image-text returns the model text as revised_prompt and metadata.text', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postImages(gateway, token, 'edits', {
      model: 'gx-3.1-flash-image-preview',
      prompt: 'add a party hat',
      image: `data:image/png;base64,${tinyPngBase64}`,
      response_modalities: 'image-text',
    });
    t.equal(response.statusCode, 200);
    const body = response.json();
    t.strictSame(Object.keys(body), ['created', 'data', 'metadata', 'usage']);
    t.strictSame(body.data, [{ b64_json: tinyPngBase64, url: '', revised_prompt: 'image: add a party hat' }]);
    t.strictSame(body.metadata, { text: 'image: add a party hat' });
    t.match(body.usage, { input_tokens_details: { image_tokens: 258 }, output_tokens_details: { image_tokens: 1290 } });
    t.equal(body.usage.output_tokens_details.text_tokens, body.usage.output_tokens - 1290, 'the text the model wrote');

    t.strictSame(lastSent(fake), {
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: tinyPngBase64 } }, { text: 'add a party hat' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { imageSize: '1K' } },
    });
    t.equal(fake.requests.at(-1)!.path, '/v1beta/models/gx-3.1-flash-image-preview:generateContent');
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage });
  });

  t.test('every model of the family is served on both routes', async (t) => {
    const token = await issueToken(t, gateway);
    for (const model of imageModels) {
      for (const path of ['generations', 'edits'] as const) {
        const response = await postImages(gateway, token, path, { model, prompt: 'a kite' });
        t.equal(response.statusCode, 200, `${model} on ${path}`);
        t.equal(fake.requests.at(-1)!.path, `/v1beta/models/${model}:generateContent`);
      }
    }
    t.match(await storedToken(gateway, token), { used_quota: 6 * unitsPerImage });
  });

  t.test('size, quality and image_size become imageConfig', async (t) => {
    const token = await issueToken(t, gateway);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ size: '1792x1024' }, { aspectRatio: '16:9', imageSize: '1K' }],
      [{ size: '1024x1536', quality: 'hd' }, { aspectRatio: '2:3', imageSize: '2K' }],
      [{ size: '21:9', quality: 'high' }, { aspectRatio: '21:9', imageSize: '2K' }],
      [{ size: '300x300', quality: 'standard' }, { imageSize: '1K' }],
      [{ image_size: '4K' }, { imageSize: '4K' }],
      [{ image_size: '1K', quality: '2K' }, { imageSize: '1K' }],
      [{ quality: 'auto', size: '512x512' }, { aspectRatio: '1:1', imageSize: '1K' }],
    ];
    for (const [fields, imageConfig] of cases) {
      const response = await postImages(gateway, token, 'generations', { model: 'gx-3-pro-image-preview', prompt: 'a map', ...fields });
      t.equal(response.statusCode, 200, JSON.stringify(fields));
      t.strictSame(lastSent(fake).generationConfig.imageConfig, imageConfig, JSON.stringify(fields));
    }
  });

  t.test('temperature and top_p reach the upstream; n, response_format, sample_count and mime_type change nothing there', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postImages(gateway, token, 'generations', {
      model: 'gx-2.5-flash-image',
      prompt: 'a boat',
      temperature: 0.3,
      top_p: 0.8,
      sample_count: 2,
      mime_type: 'image/jpeg',
      response_format: 'url',
      n: 1,
    });
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent(fake).generationConfig, { responseModalities: ['IMAGE'], imageConfig: { imageSize: '1K' }, temperature: 0.3, topP: 0.8 });
    t.strictSame(response.json().data, [{ b64_json: tinyPngBase64, url: '' }], 'response_format url still answers b64_json');
  });

  t.test('n asks for one image only: reserved, made and billed once', async (t) => {
    const token = await issueToken(t, gateway, { remain_quota: unitsPerImage + 500 });
    const response = await postImages(gateway, token, 'generations', { model: 'gx-2.5-flash-image', prompt: 'four cats', n: 4 });
    t.equal(response.statusCode, 200, 'a quota for one image is enough');
    t.equal(response.json().data.length, 1);
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage, remain_quota: 500 });
  });

  t.test('fusion sends a URL, raw base64 and a data URI in order, each typed by its bytes', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postImages(gateway, token, 'generations', {
      model: 'gx-3-pro-image-preview',
      prompt: 'combine these',
      image: [`${media}/photo`, tinyPngBase64, `data:image/jpeg;base64,${jpeg.toString('base64')}`, `${media}/cat.png`],
    });
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent(fake).contents, [
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/jpeg', data: jpeg.toString('base64') } },
          { inlineData: { mimeType: 'image/png', data: tinyPngBase64 } },
          { inlineData: { mimeType: 'image/jpeg', data: jpeg.toString('base64') } },
          { inlineData: { mimeType: 'image/png', data: tinyPngBase64 } },
          { text: 'combine these' },
        ],
      },
    ]);
    t.match(response.json().usage.input_tokens_details, { image_tokens: 4 * 258 });
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage }, 'references cost nothing; the one image does');
  });

  t.test('the contents form keeps its parts in order in one user turn', async (t) => {
    const token = await issueToken(t, gateway);
    const response = await postImages(gateway, token, 'edits', {
      model: 'gx-3-pro-image-preview',
      contents: [{ role: 'user', parts: [{ text: 'put this hat' }, { image: `${media}/cat.png` }, { text: 'on this dog' }, { image: jpeg.toString('base64') }] }],
    });
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent(fake).contents, [
      {
        role: 'user',
        parts: [
          { text: 'put this hat' },
          { inlineData: { mimeType: 'image/png', data: tinyPngBase64 } },
          { text: 'on this dog' },
          { inlineData: { mimeType: 'image/jpeg', data: jpeg.toString('base64') } },
        ],
      },
    ]);
  });

  t.test('every invalid field is a 400 invalid_request naming it, before any upstream call or charge', async (t) => {
    const token = await issueToken(t, gateway);
    const before = fake.requests.length;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ prompt: undefined }, /^prompt: required/],
      [{ prompt: '' }, /^prompt: must not be empty/],
      [{ prompt: 42 }, /^prompt: /],
      [{ quality: 'ultra' }, /^quality: expected one of hd, high, 2K, standard, medium, low, auto, 1K/],
      [{ image_size: '3K' }, /^image_size: expected 1K, 2K or 4K/],
      [{ mime_type: 'image/gif' }, /^mime_type: expected image\/png or image\/jpeg/],
      [{ response_modalities: 'text' }, /^response_modalities: expected image or image-text/],
      [{ size: 1024 }, /^size: /],
      [{ temperature: 'hot' }, /^temperature: /],
      [{ top_p: 2 }, /^top_p: /],
      [{ sample_count: 0 }, /^sample_count: /],
      [{ n: 0 }, /^n: /],
      [{ response_format: 'png' }, /^response_format: /],
      [{ stream: true }, /^stream: the image models do not stream/],
      [{ image: 7 }, /^image: /],
      [{ image: ['not base64!'] }, /^image\[0\]: expected an https URL, a data: URI or base64 image data/],
      [{ image: 'ftp://example.com/cat.png' }, /^image: ftp: addresses are not fetched/],
      [{ image: Buffer.from('plain text').toString('base64') }, /^image: the data is not a png, jpeg, webp, heic or heif image/],
      [{ contents: [{ role: 'model', parts: [{ text: 'x' }] }] }, /^contents\[0\]\.role: /],
      [{ contents: [{ role: 'user', parts: [{ image_url: 'x' }] }] }, /^unknown field "contents\[0\]\.parts\[0\]\.image_url"/],
      [{ mask: tinyPngBase64 }, /mask is not supported .*send JSON without a mask/],
      [{ extra_body: { gx: {} } }, /^extra_body is not accepted/],
      [{ style: 'vivid' }, /^unknown field "style"/],
    ];
    for (const path of ['generations', 'edits'] as const) {
      for (const [fields, message] of cases) {
        const response = await postImages(gateway, token, path, { model: 'gx-2.5-flash-image', prompt: 'a cat', ...fields });
        t.test(`${path}: ${JSON.stringify(fields).slice(0, 60)}`, async (t) => isImagesError(t, response, 400, 'invalid_request', message));
      }
    }
    t.equal(fake.requests.length, before, 'no upstream call');
    t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota });
  });

  t.test('bmp, gif and tiff references are refused, inline or by URL', async (t) => {
    const token = await issueToken(t, gateway);
    const before = fake.requests.length;
    const cases: Array<[unknown, RegExp]> = [
      [`data:image/bmp;base64,${bmp.toString('base64')}`, /^image: bmp images are not accepted as references; send png, jpeg, webp, heic or heif/],
      [bmp.toString('base64'), /^image: bmp images are not accepted/],
      [[tinyPngBase64, gif.toString('base64')], /^image\[1\]: gif images are not accepted/],
      [Buffer.concat([Buffer.from([0x4d, 0x4d, 0x00, 0x2a]), Buffer.alloc(8)]).toString('base64'), /^image: tiff images are not accepted/],
      [`${media}/pic.bmp`, /^image: the image is not png, jpeg, webp, heic or heif/],
      [`${media}/anim`, /^image: the image is not png, jpeg, webp, heic or heif/],
    ];
    for (const [image, message] of cases) {
      isImagesError(t, await postImages(gateway, token, 'edits', { model: 'gx-3-pro-image-preview', prompt: 'fix it', image }), 400, 'invalid_request', message);
    }
    t.equal(fake.requests.length, before, 'no upstream call');
    t.match(await storedToken(gateway, token), { used_quota: 0 });
  });

  t.test('a multipart body is refused with a message to send JSON without a mask', async (t) => {
    const token = await issueToken(t, gateway);
    const boundary = 'gx-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ngx-2.5-flash-image\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nedit it\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="cat.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/images/edits',
      headers: { ...token.bearer, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    isImagesError(t, response, 400, 'invalid_request', /JSON body, not multipart\/form-data.*without a mask/);
  });
});

t.test('a reference URL on a private network is refused unless the operator allows it', async (t) => {
  const fake = await startGx(t);
  const media = await startMediaServer(t);
  const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)], false);
  const token = await issueToken(t, gateway);
  const response = await postImages(gateway, token, 'generations', { model: 'gx-2.5-flash-image', prompt: 'x', image: [tinyPngBase64, `${media}/cat.png`] });
  isImagesError(t, response, 400, 'invalid_request', /^image\[1\]: the media URL points to a private, loopback/);
  t.equal(fake.requests.length, 0);
});

t.test('blocked, withheld and empty answers are charged nothing', async (t) => {
  const fake = await startGx(t);
  const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
  const token = await issueToken(t, gateway);
  const body = { model: 'gx-3-pro-image-preview', prompt: 'something forbidden' };

  fake.next({ blockPrompt: 'PROHIBITED_CONTENT' });
  isImagesError(t, await postImages(gateway, token, 'generations', body), 400, 'prompt_blocked', /blocked the request \(PROHIBITED_CONTENT\); change the prompt/);

  fake.next({ withholdImage: 'IMAGE_SAFETY' });
  isImagesError(t, await postImages(gateway, token, 'edits', body), 400, 'prompt_blocked', /withheld the image \(IMAGE_SAFETY\)/);

  fake.next({ noCandidates: true });
  isImagesError(t, await postImages(gateway, token, 'generations', body), 502, 'empty_response', /without any candidate/);

  fake.next({ withholdImage: 'NO_IMAGE' });
  isImagesError(t, await postImages(gateway, token, 'generations', { ...body, response_modalities: 'image-text' }), 502, 'empty_response', /finish reason NO_IMAGE\); the model said: image: something forbidden/);

  t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota });
  t.equal(fake.requests.length, 4, 'one call each: a blocked prompt is not retried and there is no other channel');
});

t.test('failing upstreams move on to the next channel, and only the image made is billed', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const gateway = await imagesGateway(t, [imagesChannel('gx-first', first.url, { priority: 10 }), imagesChannel('gx-second', second.url)]);

  t.test('an upstream 5xx fails over to the second channel', async (t) => {
    const token = await issueToken(t, gateway);
    first.next({ error: 500 });
    const response = await postImages(gateway, token, 'generations', { model: 'gx-2.5-flash-image', prompt: 'a fern' });
    t.equal(response.statusCode, 200);
    t.strictSame(response.json().data, [{ b64_json: tinyPngBase64, url: '' }]);
    t.strictSame(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage });
  });

  t.test('an answer without an image fails over too', async (t) => {
    const token = await issueToken(t, gateway);
    first.next({ noCandidates: true });
    const response = await postImages(gateway, token, 'edits', { model: 'gx-2.5-flash-image', prompt: 'a fern', image: tinyPngBase64 });
    t.equal(response.statusCode, 200);
    t.strictSame(lastAttempts(gateway), ['gx-first:failed', 'gx-second:success']);
    t.match(await storedToken(gateway, token), { used_quota: unitsPerImage });
  });

  t.test('a blocked prompt is not retried elsewhere', async (t) => {
    const token = await issueToken(t, gateway);
    const before = second.requests.length;
    first.next({ blockPrompt: 'SAFETY' });
    isImagesError(t, await postImages(gateway, token, 'generations', { model: 'gx-2.5-flash-image', prompt: 'a fern' }), 400, 'prompt_blocked');
    t.strictSame(lastAttempts(gateway), ['gx-first:refused']);
    t.equal(second.requests.length, before);
    t.match(await storedToken(gateway, token), { used_quota: 0 });
  });
});

t.test('every row of the images errors table, through the route', async (t) => {
  const body = { model: 'gx-2.5-flash-image', prompt: 'a harbour' };

  t.test('400 prompt_blocked: the upstream blocked the prompt', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    fake.next({ blockPrompt: 'SAFETY' });
    isImagesError(t, await postImages(gateway, await issueToken(t, gateway), 'generations', body), 400, 'prompt_blocked', /change the prompt or the reference images/);
  });

  t.test('400 invalid_request: unknown model, empty prompt, bad image field, bmp reference', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    const token = await issueToken(t, gateway);
    isImagesError(t, await postImages(gateway, token, 'generations', { ...body, model: 'gx-9-imaginary-image' }), 400, 'invalid_request', /gx-9-imaginary-image/);
    isImagesError(t, await postImages(gateway, token, 'generations', { ...body, prompt: '' }), 400, 'invalid_request', /^prompt: /);
    isImagesError(t, await postImages(gateway, token, 'edits', { ...body, image: { url: 'https://example.com/a.png' } }), 400, 'invalid_request', /^image: /);
    isImagesError(t, await postImages(gateway, token, 'edits', { ...body, image: `data:image/bmp;base64,${bmp.toString('base64')}` }), 400, 'invalid_request', /^image: bmp images/);
    t.equal(fake.requests.length, 0);
  });

  t.test('401 invalid_authentication: a bad key', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    isImagesError(t, await postImages(gateway, { bearer: { authorization: 'Bearer sk-not-a-real-key' } }, 'generations', body), 401, 'invalid_authentication');
  });

  t.test('402 insufficient_quota: a token that cannot pay for one image', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    const token = await issueToken(t, gateway, { remain_quota: unitsPerImage - 1 });
    isImagesError(t, await postImages(gateway, token, 'generations', body), 402, 'insufficient_quota');
    t.equal(fake.requests.length, 0);
  });

  t.test('429 rate_limit_exceeded with Retry-After: the only channel is rate limited', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    const token = await issueToken(t, gateway);
    fake.next({ error: 429 });
    const response = await postImages(gateway, token, 'generations', body);
    isImagesError(t, response, 429, 'rate_limit_exceeded');
    t.equal(response.headers['retry-after'], '35', "the upstream's RetryInfo delay of 34.4 s, rounded up");
    t.match(await storedToken(gateway, token), { used_quota: 0 });
  });

  t.test('502 empty_response: the only channel returned no image', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    fake.next({ withholdImage: 'IMAGE_OTHER' });
    isImagesError(t, await postImages(gateway, await issueToken(t, gateway), 'generations', body), 502, 'empty_response', /retry the request/);
  });

  t.test('503 bad_response: the only channel failed with HTTP 500', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url)]);
    const token = await issueToken(t, gateway);
    fake.next({ error: 500 });
    isImagesError(t, await postImages(gateway, token, 'edits', body), 503, 'bad_response');
    t.match(await storedToken(gateway, token), { used_quota: 0 });
  });

  t.test('504 request_timeout: the only channel stalls past first_byte_ms', async (t) => {
    const fake = await startGx(t);
    const gateway = await imagesGateway(t, [imagesChannel('gx-images', fake.url, { timeouts: { first_byte_ms: 200 } })]);
    const token = await issueToken(t, gateway);
    fake.next({ stallBeforeHeadersMs: 2000 });
    const started = Date.now();
    isImagesError(t, await postImages(gateway, token, 'generations', body), 504, 'request_timeout');
    t.ok(Date.now() - started < 1500, 'answered when first_byte_ms passed, not when the upstream woke');
    t.match(await storedToken(gateway, token), { used_quota: 0 });
  });
});
