import t, { type Test } from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { samplePngBase64, startFakeDashScopeUpstream, type FakeDashScopeUpstream } from '../fakes/dashscope/fake-dashscope-upstream.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// qi models cost 0.04 USD per image: at 500000 quota units per USD, 20000 units an image.
const pricing = { ...scenarioPricing, 'qi-*': { per_image: 0.04 } };
const unitsPerImage = 20_000;
const startingQuota = 5_000_000;

const upstreamKey = 'dashscope-upstream-key';
const generationPath = '/api/v1/services/aigc/multimodal-generation/generation';
const contentPath = 'input.messages[0].content';

/** The gateway's own media guard lets the fake's 127.0.0.1 image URLs through only when told to. */
const privateMediaAllowed = { encryption_key: testEncryptionKey, media: { allow_private_networks: true } };

async function startDashScope(t: Test): Promise<FakeDashScopeUpstream> {
  const fake = await startFakeDashScopeUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

function qiChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    plugin: 'qi',
    base_url: baseUrl,
    api_key: upstreamKey,
    models: ['qi-plus', 'qi-edit-plus'],
    model_map: { 'qi-plus': 'qwen-image-plus', 'qi-edit-plus': 'qwen-image-edit-plus' },
    groups: ['default'],
    ...fields,
  };
}

async function qiGateway(t: Test, fakes: FakeDashScopeUpstream[], overrides: Record<string, unknown> = {}): Promise<TestApp> {
  const providers = fakes.map((fake, index) => qiChannel(`qi-${index + 1}`, fake.url, { priority: fakes.length - index }));
  return scenarioGateway(t, { pricing, security: privateMediaAllowed, providers, ...overrides });
}

const post = (gateway: TestApp, token: IssuedToken, route: 'generations' | 'edits', body: unknown): Promise<LightMyRequestResponse> =>
  gateway.app.inject({ method: 'POST', url: `/v1/images/${route}`, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

/** A native Q-style body: one user message of images then the prompt. */
const nativeBody = (model: string, prompt: string, images: string[] = [], fields: Record<string, unknown> = {}) => ({
  model,
  input: { messages: [{ role: 'user', content: [...images.map((image) => ({ image })), { text: prompt }] }] },
  ...fields,
});

const pngDataUri = `data:image/png;base64,${samplePngBase64}`;

/** The requests that reached the generation path (the image downloads are recorded too). */
const generationCalls = (fake: FakeDashScopeUpstream) => fake.requests.filter((request) => request.path === generationPath);

/** How much quota the token used in `action`. */
async function charged(gateway: TestApp, token: IssuedToken, action: () => Promise<unknown>): Promise<{ used: number; remainDrop: number }> {
  const before = await storedToken(gateway, token);
  await action();
  const after = await storedToken(gateway, token);
  return { used: after.used_quota - before.used_quota, remainDrop: before.remain_quota - after.remain_quota };
}

t.test('qi-plus makes an image from text on /v1/images/generations', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake]);
  const token = await issueToken(t, gateway);

  t.test('the native body goes to DashScope as is, with the mapped model, and the URL comes back', async (t) => {
    const parameters = { negative_prompt: 'blurry', prompt_extend: true, watermark: false, size: '1328*1328', n: 1, seed: 42 };
    let response!: LightMyRequestResponse;
    const bill = await charged(gateway, token, async () => {
      response = await post(gateway, token, 'generations', nativeBody('qi-plus', 'three puppies playing with a ball', [], { parameters }));
    });
    t.equal(response.statusCode, 200);
    const body = response.json();
    t.strictSame(Object.keys(body), ['created', 'data']);
    t.ok(Number.isInteger(body.created) && Math.abs(body.created - Date.now() / 1000) < 60, 'created is Unix seconds');
    t.equal(body.data.length, 1);
    t.strictSame(Object.keys(body.data[0]), ['url']);
    t.match(body.data[0].url, new RegExp(`^${fake.url}/results/.+\\.png\\?Expires=`));

    const sent = generationCalls(fake).at(-1)!;
    t.equal(sent.method, 'POST');
    t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
    t.equal(sent.headers['x-dashscope-async'], undefined, 'the sync path gets no async header');
    t.strictSame(sent.json, {
      model: 'qwen-image-plus',
      input: { messages: [{ role: 'user', content: [{ text: 'three puppies playing with a ball' }] }] },
      parameters: { negative_prompt: 'blurry', prompt_extend: true, watermark: false, size: '1328*1328', n: 1, seed: 42 },
    });
    t.strictSame(bill, { used: unitsPerImage, remainDrop: unitsPerImage }, 'one image billed');
  });

  t.test('response_format b64_json returns the image bytes the upstream URL serves', async (t) => {
    const response = await post(gateway, token, 'generations', nativeBody('qi-plus', 'a red fox', [], { response_format: 'b64_json' }));
    t.equal(response.statusCode, 200);
    t.strictSame(response.json().data, [{ b64_json: samplePngBase64 }]);
    const download = fake.requests.at(-1)!;
    t.equal(download.method, 'GET', 'the gateway downloaded the result itself');
    t.equal(download.headers.authorization, undefined, 'without the channel key');
  });

  t.test('the flat OpenAI-style body is mapped onto the native one, a WxH size rewritten', async (t) => {
    const response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a lighthouse at dusk', size: '1664x928', n: 1, watermark: true });
    t.equal(response.statusCode, 200);
    t.strictSame(generationCalls(fake).at(-1)!.json, {
      model: 'qwen-image-plus',
      input: { messages: [{ role: 'user', content: [{ text: 'a lighthouse at dusk' }] }] },
      parameters: { watermark: true, size: '1664*928', n: 1 },
    });
  });

  t.test('a newer model’s token counts are passed on as the images usage', async (t) => {
    fake.next({ usage: { image_count: 1, input_tokens: 11, output_tokens: 1024, size: '1328*1328', total_tokens: 1035 }, variant: 'current' });
    const response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a kite' });
    t.strictSame(response.json().usage, {
      total_tokens: 1035,
      input_tokens: 11,
      output_tokens: 1024,
      input_tokens_details: { text_tokens: 11, image_tokens: 0 },
      output_tokens_details: { image_tokens: 0, text_tokens: 1024 },
    });
  });
});

t.test('qi-edit-plus edits 1 to 3 images, kept in the order given', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake]);
  const token = await issueToken(t, gateway);

  t.test('a URL goes as given, a data URI and raw base64 as data URIs; n images are billed', async (t) => {
    const images = ['https://example.com/photo-1.jpg', pngDataUri, samplePngBase64];
    let response!: LightMyRequestResponse;
    const bill = await charged(gateway, token, async () => {
      response = await post(gateway, token, 'edits', nativeBody('qi-edit-plus', 'put the dog from image 3 on the sofa of image 1', images, { parameters: { n: 3 } }));
    });
    t.equal(response.statusCode, 200);
    const urls = response.json().data.map((item: { url: string }) => item.url);
    t.equal(urls.length, 3);
    const sentImages = [pngDataUri, pngDataUri];
    const content = (generationCalls(fake).at(-1)!.json as any).input.messages[0].content;
    t.strictSame(content, [{ image: 'https://example.com/photo-1.jpg' }, ...sentImages.map((image) => ({ image })), { text: 'put the dog from image 3 on the sofa of image 1' }]);
    for (const url of urls) t.strictSame(fake.results.get(new URL(url).pathname)?.inputImages, ['https://example.com/photo-1.jpg', ...sentImages]);
    t.strictSame(bill, { used: 3 * unitsPerImage, remainDrop: 3 * unitsPerImage });
  });

  t.test('the flat form takes image as a list, and qi-edit-plus also works on generations', async (t) => {
    const response = await post(gateway, token, 'generations', { model: 'qi-edit-plus', prompt: 'swap the skies', image: ['https://a.example/1.png', 'https://a.example/2.png'], n: 2 });
    t.equal(response.statusCode, 200);
    t.equal(response.json().data.length, 2);
    t.strictSame((generationCalls(fake).at(-1)!.json as any).input.messages[0].content, [{ image: 'https://a.example/1.png' }, { image: 'https://a.example/2.png' }, { text: 'swap the skies' }]);
  });

  t.test('a multipart edit, as OpenAI clients send it, takes its files in order', async (t) => {
    const form = new FormData();
    form.append('model', 'qi-edit-plus');
    form.append('prompt', 'merge them');
    form.append('prompt_extend', 'false');
    form.append('image[]', new Blob([Buffer.from(samplePngBase64, 'base64')], { type: 'image/png' }), 'first.png');
    form.append('image[]', new Blob([Buffer.from(samplePngBase64, 'base64')], { type: 'image/png' }), 'second.png');
    const request = new Request('http://client.invalid/', { method: 'POST', body: form });
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/images/edits',
      headers: { ...token.bearer, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    t.equal(response.statusCode, 200, response.payload);
    t.strictSame(generationCalls(fake).at(-1)!.json, {
      model: 'qwen-image-edit-plus',
      input: { messages: [{ role: 'user', content: [{ image: pngDataUri }, { image: pngDataUri }, { text: 'merge them' }] }] },
      parameters: { prompt_extend: false },
    });
  });
});

t.test('every invalid field is a 400 invalid_request naming it, before any upstream call and without a charge', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake]);
  const token = await issueToken(t, gateway);
  const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1').toString('base64');
  const edit = (images: string[], fields: Record<string, unknown> = {}) => nativeBody('qi-edit-plus', 'edit it', images, fields);
  const plus = (fields: Record<string, unknown> = {}) => nativeBody('qi-plus', 'a cat', [], fields);
  const url = 'https://example.com/a.png';

  const cases: Array<[string, 'generations' | 'edits', unknown, string]> = [
    ['n above 6 for an edit', 'edits', edit([url], { parameters: { n: 7 } }), 'parameters.n'],
    ['n of 0', 'edits', edit([url], { parameters: { n: 0 } }), 'parameters.n'],
    ['n above 1 for qi-plus', 'generations', plus({ parameters: { n: 2 } }), 'parameters.n'],
    ['a fractional n', 'generations', plus({ parameters: { n: 1.5 } }), 'parameters.n'],
    ['a flat n above 6', 'edits', { model: 'qi-edit-plus', prompt: 'x', image: url, n: 7 }, 'n'],
    ['a size without *', 'generations', plus({ parameters: { size: '1024' } }), 'parameters.size'],
    ['a size that is not numbers', 'generations', plus({ parameters: { size: 'wide*tall' } }), 'parameters.size'],
    ['a negative seed', 'generations', plus({ parameters: { seed: -1 } }), 'parameters.seed'],
    ['a seed past 2147483647', 'generations', plus({ parameters: { seed: 2147483648 } }), 'parameters.seed'],
    ['prompt_extend as text', 'generations', plus({ parameters: { prompt_extend: 'yes' } }), 'parameters.prompt_extend'],
    ['watermark as a number', 'generations', plus({ parameters: { watermark: 1 } }), 'parameters.watermark'],
    ['negative_prompt as a number', 'generations', plus({ parameters: { negative_prompt: 3 } }), 'parameters.negative_prompt'],
    ['an unknown parameter', 'generations', plus({ parameters: { style: 'oil' } }), 'parameters.style'],
    ['no message', 'generations', { model: 'qi-plus', input: { messages: [] } }, 'input.messages'],
    ['an assistant message', 'generations', { model: 'qi-plus', input: { messages: [{ role: 'assistant', content: [{ text: 'x' }] }] } }, 'input.messages[0].role'],
    ['no text item', 'edits', { model: 'qi-edit-plus', input: { messages: [{ role: 'user', content: [{ image: url }] }] } }, contentPath],
    ['an empty prompt', 'generations', nativeBody('qi-plus', ' '), `${contentPath}[0].text`],
    ['two text items', 'generations', { model: 'qi-plus', input: { messages: [{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }] } }, `${contentPath}[1].text`],
    ['an unknown content item', 'generations', { model: 'qi-plus', input: { messages: [{ role: 'user', content: [{ text: 'a' }, { video: 'v' }] }] } }, `${contentPath}[1].video`],
    ['an image for qi-plus', 'generations', nativeBody('qi-plus', 'a cat', [url]), `${contentPath}[0].image`],
    ['an edit without images', 'edits', edit([]), contentPath],
    ['four images', 'edits', edit([url, url, url, url]), `${contentPath}[3].image`],
    ['an ftp image URL', 'edits', edit([url, 'ftp://example.com/a.png']), `${contentPath}[1].image`],
    ['an image that is neither URL nor base64', 'edits', edit(['a picture of a cat']), `${contentPath}[0].image`],
    ['base64 of a GIF', 'edits', edit([gif]), `${contentPath}[0].image`],
    ['a data URI of a GIF', 'edits', edit([url, `data:image/gif;base64,${gif}`]), `${contentPath}[1].image`],
    ['a broken data URI', 'edits', edit(['data:image/png;base64,@@@@']), `${contentPath}[0].image`],
    ['qi-plus on the edits route', 'edits', plus(), 'model'],
    ['flat fields mixed into the native body', 'generations', plus({ prompt: 'also this' }), 'prompt'],
    ['an unknown flat field', 'generations', { model: 'qi-plus', prompt: 'a cat', quality: 'hd' }, 'quality'],
    ['a flat body without prompt', 'generations', { model: 'qi-plus', size: '1024*1024' }, 'prompt'],
    ['an unknown response_format', 'generations', plus({ response_format: 'png' }), 'response_format'],
  ];
  for (const [what, route, body, field] of cases) {
    t.test(`${what} → 400 naming ${field}`, async (t) => {
      const calls = generationCalls(fake).length;
      let response!: LightMyRequestResponse;
      const bill = await charged(gateway, token, async () => {
        response = await post(gateway, token, route, body);
      });
      t.equal(response.statusCode, 400);
      t.strictSame(Object.keys(response.json().error), ['message', 'type', 'code']);
      t.match(response.json().error, { type: 'invalid_request_error', code: 'invalid_request' });
      t.ok(response.json().error.message.startsWith(`${field}: `), response.json().error.message);
      t.equal(generationCalls(fake).length, calls, 'the upstream was not called');
      t.strictSame(bill, { used: 0, remainDrop: 0 });
    });
  }
});

t.test('blocked and empty results cost nothing; partial results cost what was made', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake]);
  const token = await issueToken(t, gateway);

  for (const blocked of [true, 'output', 'ip'] as const) {
    t.test(`a moderation refusal (${String(blocked)}) is 400 prompt_blocked`, async (t) => {
      fake.next({ blocked });
      let response!: LightMyRequestResponse;
      const bill = await charged(gateway, token, async () => {
        response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'something forbidden' });
      });
      t.equal(response.statusCode, 400);
      t.match(response.json(), { error: { code: 'prompt_blocked', type: 'invalid_request_error', message: /safety filter blocked the request.*change the prompt or the image/ } });
      t.strictSame(bill, { used: 0, remainDrop: 0 });
    });
  }

  t.test('zero images is 502 empty_response', async (t) => {
    fake.next({ images: 0 });
    let response!: LightMyRequestResponse;
    const bill = await charged(gateway, token, async () => {
      response = await post(gateway, token, 'edits', nativeBody('qi-edit-plus', 'edit', ['https://example.com/a.png'], { parameters: { n: 2 } }));
    });
    t.equal(response.statusCode, 502);
    t.match(response.json(), { error: { code: 'empty_response', type: 'server_error', message: /no image/ } });
    t.strictSame(bill, { used: 0, remainDrop: 0 });
  });

  t.test('2 images made of 4 asked for bill 2', async (t) => {
    fake.next({ images: 2 });
    let response!: LightMyRequestResponse;
    const bill = await charged(gateway, token, async () => {
      response = await post(gateway, token, 'edits', nativeBody('qi-edit-plus', 'edit', ['https://example.com/a.png'], { parameters: { n: 4 } }));
    });
    t.equal(response.statusCode, 200);
    t.equal(response.json().data.length, 2);
    t.strictSame(bill, { used: 2 * unitsPerImage, remainDrop: 2 * unitsPerImage });
  });

  t.test('an upstream 400 is the client’s: 400 invalid_request with DashScope’s message', async (t) => {
    fake.next({ error: 400, message: 'The size is not match the allowed sizes.' });
    const response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat', size: '512*512' });
    t.equal(response.statusCode, 400);
    t.match(response.json().error, { code: 'invalid_request', message: 'The size is not match the allowed sizes. (InvalidParameter)' });
  });
});

t.test('an upstream 5xx fails over to the next channel, which alone is billed; a 400 does not', async (t) => {
  const first = await startDashScope(t);
  const second = await startDashScope(t);
  const gateway = await qiGateway(t, [first, second]);
  const token = await issueToken(t, gateway);

  first.next({ error: 500 });
  let response!: LightMyRequestResponse;
  const bill = await charged(gateway, token, async () => {
    response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a harbour', response_format: 'b64_json' });
  });
  t.equal(response.statusCode, 200);
  t.strictSame(response.json().data, [{ b64_json: samplePngBase64 }]);
  t.strictSame(lastAttempts(gateway), ['qi-1:failed', 'qi-2:success']);
  t.equal(generationCalls(first).length, 1);
  t.equal(generationCalls(second).length, 1);
  t.strictSame(bill, { used: unitsPerImage, remainDrop: unitsPerImage });

  first.next({ error: 400, message: 'The size is not match the allowed sizes.' });
  const refused = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a harbour', size: '512*512' });
  t.equal(refused.statusCode, 400);
  t.strictSame(lastAttempts(gateway), ['qi-1:refused'], 'a client mistake is not retried elsewhere');
  t.equal(generationCalls(second).length, 1);

  first.next({ error: 503 });
  second.next({ error: 500 });
  const failed = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a harbour' });
  t.equal(failed.statusCode, 503);
  t.match(failed.json(), { error: { code: 'bad_response', type: 'server_error' } });
});

t.test("without allow_private_networks a result URL on the channel's own host is still converted: the gateway trusts that host", async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake], { security: { encryption_key: testEncryptionKey } });
  const token = await issueToken(t, gateway);

  const response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat', response_format: 'b64_json' });
  t.equal(response.statusCode, 200);
  t.strictSame(response.json().data, [{ b64_json: samplePngBase64 }]);
  t.equal(fake.requests.filter((request) => request.method === 'GET').length, 1, 'the loopback result URL was fetched');
});

t.test('without allow_private_networks the media guard refuses to convert a result URL on another private host', async (t) => {
  const fake = await startDashScope(t);
  // The channel is configured as `localhost`; the fake names its results by 127.0.0.1, another host.
  const providers = [qiChannel('qi-1', fake.url.replace('127.0.0.1', 'localhost'))];
  const gateway = await scenarioGateway(t, { pricing, security: { encryption_key: testEncryptionKey }, providers });
  const token = await issueToken(t, gateway);

  let response!: LightMyRequestResponse;
  const bill = await charged(gateway, token, async () => {
    response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat', response_format: 'b64_json' });
  });
  t.equal(response.statusCode, 503);
  t.match(response.json(), {
    error: { code: 'bad_response', type: 'server_error', message: /could not download it to return it as b64_json: .*non-public address on a host other than the channel's base_url.*security\.media\.allow_hosts.*response_format "url"/ },
  });
  t.equal(fake.requests.filter((request) => request.method === 'GET').length, 0, 'the private URL was never fetched');
  t.strictSame(lastAttempts(gateway), ['qi-1:refused'], 'not retried on another channel');
  t.strictSame(bill, { used: 0, remainDrop: 0 });

  const asUrl = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat' });
  t.equal(asUrl.statusCode, 200, 'the URL itself still comes back');
});

t.test('a result that is not PNG, JPEG or WebP is refused for b64_json', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await qiGateway(t, [fake]);
  const token = await issueToken(t, gateway);
  fake.next({ imageContentType: 'text/html', imageBytes: Buffer.from('<html></html>') });
  const response = await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat', response_format: 'b64_json' });
  t.equal(response.statusCode, 503);
  t.match(response.json().error.message, /text\/html, which is not accepted here/);
});

t.test('fetch_input_urls downloads input URLs through the media guard and sends data URIs', async (t) => {
  const fake = await startDashScope(t);
  const made = await (async () => {
    // One generation first, so the fake holds an image at a 127.0.0.1 URL to use as input.
    const gateway = await qiGateway(t, [fake]);
    const token = await issueToken(t, gateway);
    return (await post(gateway, token, 'generations', { model: 'qi-plus', prompt: 'a cat' })).json().data[0].url as string;
  })();

  const allowed = await qiGateway(t, [fake], { providers: [qiChannel('qi-fetching', fake.url, { options: { fetch_input_urls: true } })] });
  const allowedToken = await issueToken(t, allowed);
  const response = await post(allowed, allowedToken, 'edits', nativeBody('qi-edit-plus', 'recolour', [made]));
  t.equal(response.statusCode, 200);
  t.strictSame((generationCalls(fake).at(-1)!.json as any).input.messages[0].content[0], { image: pngDataUri });

  const guarded = await qiGateway(t, [fake], {
    security: { encryption_key: testEncryptionKey },
    providers: [qiChannel('qi-fetching', fake.url, { options: { fetch_input_urls: true } })],
  });
  const guardedToken = await issueToken(t, guarded);
  const calls = generationCalls(fake).length;
  const refused = await post(guarded, guardedToken, 'edits', nativeBody('qi-edit-plus', 'recolour', [made]));
  t.equal(refused.statusCode, 400);
  t.match(refused.json().error, { code: 'invalid_request', message: /^input\.messages\[0\]\.content\[0\]\.image: the media URL points to a private/ });
  t.equal(generationCalls(fake).length, calls, 'the upstream was not called');
});

t.test('the channel options are checked at start', async (t) => {
  await t.rejects(
    scenarioGateway(t, { pricing, providers: [qiChannel('qi-bad', 'http://127.0.0.1:9', { options: { path_prefix: 'api/v1/' } })] }),
    /providers\[0\]\.options\.path_prefix/,
  );
});
