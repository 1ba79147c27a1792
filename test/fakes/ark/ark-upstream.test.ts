import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import t, { type Test } from 'tap';
import { arkImageTokens, sampleJpeg, sampleJpegBase64, startFakeArkUpstream, type FakeArkUpstream } from './fake-ark-upstream.js';

const apiKey = 'ark-unit-key';
const fixtureText = (name: string) => readFileSync(new URL(`../../fixtures/dsr/${name}`, import.meta.url), 'utf8');
const responses = JSON.parse(fixtureText('ark-seedream-image-responses.json'));
const streamFixture = fixtureText('ark-seedream-stream.sse');

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  error?: Error;
}

/** One request with `node:http`, so the test sees the exact bytes. */
function send(url: string, method: 'GET' | 'POST', body?: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const answer: RawAnswer = { status: 0, headers: {}, body: Buffer.alloc(0) };
    const finish = (error?: Error) => {
      answer.body = Buffer.concat(chunks);
      if (error !== undefined) answer.error = error;
      resolve(answer);
    };
    const outgoing = httpRequest(url, { method, headers }, (incoming) => {
      answer.status = incoming.statusCode ?? 0;
      answer.headers = incoming.headers;
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => finish());
      incoming.on('error', (error) => finish(error));
    });
    outgoing.on('error', (error) => finish(error));
    outgoing.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const generate = (fake: FakeArkUpstream, body: unknown, headers: Record<string, string> = {}) =>
  send(`${fake.url}/api/v3/images/generations`, 'POST', body, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers });

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

async function startFake(t: Test, models?: string[]): Promise<FakeArkUpstream> {
  const fake = await startFakeArkUpstream({ apiKey, models });
  t.teardown(() => fake.close());
  return fake;
}

/** Reads an Ark stream strictly: each block is `event: <type>` and one `data:` line, then `data: [DONE]`. */
function streamEvents(t: Test, raw: string): Array<{ name: string; data: Record<string, any> }> {
  t.ok(raw.endsWith('data: [DONE]\n\n'), 'the stream ends with [DONE]');
  const blocks = raw.slice(0, -'data: [DONE]\n\n'.length).slice(0, -2).split('\n\n');
  return blocks.map((block) => {
    const lines = block.split('\n');
    t.equal(lines.length, 2, `two lines per event: ${block.slice(0, 60)}`);
    t.match(lines[0], /^event: image_generation\.[a-z_]+$/);
    const data = JSON.parse(lines[1]!.slice('data: '.length)) as Record<string, any>;
    const name = lines[0]!.slice('event: '.length);
    t.equal(data.type, name, 'the event name is the data type');
    return { name, data };
  });
}

t.test('a text-to-image answer has the recorded keys in order, and its URL serves a real JPEG', async (t) => {
  const fake = await startFake(t);
  const answer = await generate(fake, { model: 'doubao-seedream-4-0-250828', prompt: 'a red fox in snow', size: '2560x1440' });
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(answer.headers['content-length'], String(answer.body.length));
  t.match(answer.headers['x-request-id'], /^0217/);
  const body = json(answer);
  t.equal(answer.body.toString('utf8'), JSON.stringify(body), 'compact JSON');
  t.same(Object.keys(body), Object.keys(responses.t2i));
  t.equal(body.model, 'doubao-seedream-4-0-250828');
  t.ok(Math.abs(body.created - Date.now() / 1000) < 5);
  t.equal(body.data.length, 1);
  t.same(Object.keys(body.data[0]), Object.keys(responses.t2i.data[0]));
  t.equal(body.data[0].size, '2560x1440');
  t.same(body.usage, { generated_images: 1, output_tokens: 14400, total_tokens: 14400 }, 'one token per 256 pixels');
  t.same(Object.keys(body.usage), Object.keys(responses.t2i.usage));

  const url = new URL(body.data[0].url);
  t.equal(url.origin, fake.url, 'the URL points back at the fake');
  t.match(url.pathname, /^\/ark-content-generation\/doubao-seedream-4-0-250828\/.+\.jpeg$/);
  t.match(url.search, /X-Tos-Signature=/);
  const image = await send(url.href, 'GET');
  t.equal(image.status, 200);
  t.equal(image.headers['content-type'], 'image/jpeg');
  t.same(image.body, sampleJpeg);
  t.same([...image.body.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG start of image');
  t.same([...image.body.subarray(-2)], [0xff, 0xd9], 'JPEG end of image');
  t.same(
    fake.requests.map((request) => request.method),
    ['POST', 'GET'],
    'image downloads are recorded too, so a test can tell whether anyone fetched a URL',
  );
});

t.test('the token rule reproduces the recorded usage', async (t) => {
  t.equal(arkImageTokens('1760x2368'), responses.t2i.usage.output_tokens);
  t.equal(arkImageTokens('2720x1536') * 3, responses.group_3_images.usage.output_tokens);
});

t.test('a URL the fake did not hand out is a 404', async (t) => {
  const fake = await startFake(t);
  const answer = await send(`${fake.url}/ark-content-generation/nobody/made-this.jpeg`, 'GET');
  t.equal(answer.status, 404);
});

t.test('b64_json answers carry the JPEG inline and no URL', async (t) => {
  const fake = await startFake(t);
  const body = json(await generate(fake, { model: 'doubao-seedream-3-0-t2i-250415', prompt: 'x', response_format: 'b64_json' }));
  t.same(body.data, [{ b64_json: sampleJpegBase64, size: '1024x1024' }], '3.0 makes 1024x1024 by default');
  t.equal(body.usage.generated_images, 1);
});

t.test('a group makes max_images images; references count against the limit of 15', async (t) => {
  const fake = await startFake(t);
  const group = json(
    await generate(fake, { model: 'seedream-4-5-251128', prompt: 'four seasons', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 }, size: '2K' }),
  );
  t.equal(group.data.length, 3);
  t.same(Object.keys(group), Object.keys(responses.group_3_images));
  t.ok(group.data.every((item: { size: string }) => item.size === '2048x2048'), '2K is 2048x2048');
  t.equal(new Set(group.data.map((item: { url: string }) => item.url)).size, 3, 'three distinct URLs');
  t.same(group.usage, { generated_images: 3, output_tokens: 3 * 16384, total_tokens: 3 * 16384 });

  const unbounded = json(await generate(fake, { model: 'seedream-4-5-251128', prompt: 'x', sequential_image_generation: 'auto', image: Array(12).fill('https://example.com/a.png') }));
  t.equal(unbounded.data.length, 3, "Ark's default of 15 less the 12 references");

  const tooMany = await generate(fake, {
    model: 'seedream-4-5-251128',
    prompt: 'x',
    sequential_image_generation: 'auto',
    sequential_image_generation_options: { max_images: 4 },
    image: Array(12).fill('https://example.com/a.png'),
  });
  t.equal(tooMany.status, 400);
  t.match(json(tooMany), { error: { code: 'InvalidParameter', param: 'sequential_image_generation_options.max_images', type: 'BadRequest' } });
});

t.test('failedImages turns images of a group into the recorded error item and bills only the others', async (t) => {
  const fake = await startFake(t);
  fake.next({ failedImages: [1] });
  const body = json(await generate(fake, { model: 'seedream-4-0', prompt: 'x', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } }));
  t.equal(body.data.length, 3);
  t.ok(body.data[0].url);
  t.same(body.data[1], { error: responses.partial_failed_event.error }, 'the error object of the recorded partial_failed event');
  t.ok(body.data[2].url);
  t.same(body.usage, { generated_images: 2, output_tokens: 2 * 16384, total_tokens: 2 * 16384 });
});

t.test('blocked answers 400 with the safety filter code in Ark error shape', async (t) => {
  const fake = await startFake(t);
  for (const [kind, code] of [
    ['input_text', 'InputTextSensitiveContentDetected'],
    ['input_image', 'InputImageSensitiveContentDetected'],
    ['output_image', 'OutputImageSensitiveContentDetected'],
  ] as const) {
    fake.next({ blocked: kind });
    const answer = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
    t.equal(answer.status, 400, kind);
    const body = json(answer);
    t.same(Object.keys(body.error), Object.keys(responses.error_401.error), 'code, message, param, type');
    t.match(body.error, { code, type: 'BadRequest', param: '', message: /may contain sensitive information\. Request id: 0217/ });
  }
});

t.test('empty answers 200 without any image', async (t) => {
  const fake = await startFake(t);
  fake.next({ empty: true });
  const body = json(await generate(fake, { model: 'seedream-4-0', prompt: 'x' }));
  t.same(body.data, []);
  t.same(body.usage, { generated_images: 0, output_tokens: 0, total_tokens: 0 });
});

t.test('a missing or wrong key is the recorded 401 body', async (t) => {
  const fake = await startFake(t);
  for (const headers of [{ authorization: 'Bearer wrong' }, { authorization: '' }]) {
    const answer = await generate(fake, { model: 'seedream-4-0', prompt: 'x' }, headers);
    t.equal(answer.status, 401);
    const body = json(answer);
    const recorded = responses.error_401.error;
    t.same(Object.keys(body.error), Object.keys(recorded));
    t.match(body.error, { code: recorded.code, param: recorded.param, type: recorded.type });
    t.match(body.error.message, /^the API key or AK\/SK in the request is missing or invalid\. request id: 0217[0-9a-f]+$/);
  }
});

t.test('scripted HTTP errors come in Ark error shape with the status usual code', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  const failed = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
  t.equal(failed.status, 500);
  t.match(json(failed), { error: { code: 'InternalServiceError', type: 'InternalServerError', param: '', message: /Request id: 0217/ } });
  fake.next({ error: 429, headers: { 'retry-after': '3' } });
  const limited = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
  t.equal(limited.status, 429);
  t.equal(limited.headers['retry-after'], '3');
  t.match(json(limited), { error: { code: 'RateLimitExceeded.EndpointRPMExceeded', type: 'TooManyRequests' } });
  fake.next({ error: 400, code: 'InvalidParameter', param: 'size', message: 'The parameter `size` specified in the request is not valid.' });
  t.match(json(await generate(fake, { model: 'seedream-4-0', prompt: 'x' })), { error: { code: 'InvalidParameter', param: 'size' } });
  fake.next({ status: 503, body: 'upstream connect error' });
  const raw = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
  t.equal(raw.status, 503);
  t.equal(raw.body.toString(), 'upstream connect error');
});

t.test('the fake checks fields the way Ark does', async (t) => {
  const fake = await startFake(t, ['seedream-4-0', 'seedream-3-0-t2i']);
  const refused = async (body: unknown, param: string) => {
    const answer = await generate(fake, body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(json(answer), { error: { code: 'InvalidParameter', param, type: 'BadRequest', message: new RegExp(`^The parameter \`${param.replace(/[[\]]/g, '\\$&')}\` specified`) } });
  };
  await refused({ model: 'seedream-4-0' }, 'prompt');
  await refused({ model: 'seedream-4-0', prompt: 'x', size: 'big' }, 'size');
  await refused({ model: 'seedream-3-0-t2i', prompt: 'x', size: '2K' }, 'size');
  await refused({ model: 'seedream-4-0', prompt: 'x', image: ['https://example.com/a.png', 'ftp://example.com/b.png'] }, 'image[1]');
  await refused({ model: 'seedream-4-0', prompt: 'x', seed: 1.5 }, 'seed');
  await refused({ model: 'seedream-4-0', prompt: 'x', response_format: 'png' }, 'response_format');
  t.equal((await generate(fake, { model: 'seedream-4-0', prompt: 'x', size: '4K', image: 'data:image/png;base64,iVBORw0KGgo=' })).status, 200);

  const unknown = await generate(fake, { model: 'seedream-9', prompt: 'x' });
  t.equal(unknown.status, 404);
  t.match(json(unknown), { error: { code: 'InvalidEndpointOrModel.NotFound', type: 'NotFound', message: /seedream-9 does not exist/ } });
  const notJson = await generate(fake, '{"model": ');
  t.equal(notJson.status, 400);
});

t.test('requests are recorded with their bodies and headers', async (t) => {
  const fake = await startFake(t);
  await generate(fake, { model: 'seedream-4-0', prompt: 'hello', watermark: false });
  const [recorded] = fake.requests;
  t.equal(recorded!.path, '/api/v3/images/generations');
  t.equal(recorded!.headers.authorization, `Bearer ${apiKey}`);
  t.same(recorded!.json, { model: 'seedream-4-0', prompt: 'hello', watermark: false });
  const wrong = await send(`${fake.url}/api/v3/nothing-here`, 'POST', {}, { authorization: `Bearer ${apiKey}` });
  t.equal(wrong.status, 404);
  t.match(json(wrong), { error: { code: 'NotFound' } });
});

t.test('a stream is framed like the recorded one: event and data lines, completed with usage, then [DONE]', async (t) => {
  const fake = await startFake(t);
  fake.next({ failedImages: [2] });
  const answer = await generate(fake, { model: 'seedream-4-5', prompt: 'x', stream: true, sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } });
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'text/event-stream; charset=utf-8');
  const events = streamEvents(t, answer.body.toString('utf8'));
  const recorded = streamEvents(t, streamFixture);
  t.same(
    events.map((event) => event.name),
    ['image_generation.partial_succeeded', 'image_generation.partial_succeeded', 'image_generation.partial_failed', 'image_generation.completed'],
  );
  const recordedByName = new Map(recorded.map((event) => [event.name, event.data]));
  for (const event of events.filter((event) => event.name !== 'image_generation.partial_failed')) {
    t.same(Object.keys(event.data), Object.keys(recordedByName.get(event.name)!), `${event.name} has the recorded keys in order`);
  }
  t.same(Object.keys(events[2]!.data), Object.keys(responses.partial_failed_event), 'partial_failed has the recorded keys in order');
  t.same(events[2]!.data.error, responses.partial_failed_event.error);
  t.same(
    events.slice(0, 3).map((event) => event.data.image_index),
    [0, 1, 2],
  );
  t.same(events[3]!.data.usage, { generated_images: 2, output_tokens: 2 * 16384, total_tokens: 2 * 16384 });

  fake.next({ rawSse: streamFixture });
  const replayed = await generate(fake, { model: 'seedream-4-5', prompt: 'x', stream: true });
  t.equal(replayed.body.toString('utf8'), streamFixture, 'rawSse goes out byte for byte');

  fake.next({ blocked: 'input_text' });
  const blocked = await generate(fake, { model: 'seedream-4-5', prompt: 'x', stream: true });
  t.equal(blocked.status, 400);
  t.equal(blocked.headers['content-type'], 'application/json; charset=utf-8', 'a refused stream request is a plain JSON error');
});

t.test('connection behaviours apply to Ark answers too', async (t) => {
  const fake = await startFake(t);
  fake.next({ resetBeforeHeaders: true });
  const reset = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
  t.ok(reset.error, 'the socket was destroyed');
  fake.next({ stallBeforeHeadersMs: 50 });
  const started = Date.now();
  const late = await generate(fake, { model: 'seedream-4-0', prompt: 'x' });
  t.equal(late.status, 200);
  t.ok(Date.now() - started >= 45);
});
