import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import t, { type Test } from 'tap';
import { imageGenerationPath, samplePng, startFakeDashScopeUpstream, type FakeDashScopeUpstream } from './fake-dashscope-upstream.js';

const apiKey = 'dashscope-unit-key';
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/qi/${name}`, import.meta.url), 'utf8'));
const recorded = fixture('dashscope-qwen-image-responses.json');
const lifecycle = fixture('dashscope-video-task-lifecycle.json');

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  error?: Error;
}

/** A request with `node:http`, so the test sees the exact bytes and a reset as it happens. */
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

const post = (fake: FakeDashScopeUpstream, body: unknown, headers: Record<string, string> = {}) =>
  send(`${fake.url}${imageGenerationPath}`, 'POST', body, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers });

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

async function startFake(t: Test): Promise<FakeDashScopeUpstream> {
  const fake = await startFakeDashScopeUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

const textToImage = (fields: Record<string, unknown> = {}) => ({
  model: 'qwen-image-plus',
  input: { messages: [{ role: 'user', content: [{ text: 'three puppies playing with a ball' }] }] },
  parameters: { negative_prompt: '', prompt_extend: true, watermark: false, size: '1328*1328' },
  ...fields,
});

const edit = (images: string[], parameters: Record<string, unknown> = {}) => ({
  model: 'qwen-image-edit-plus',
  input: { messages: [{ role: 'user', content: [...images.map((image) => ({ image })), { text: 'make it blue' }] }] },
  parameters,
});

const keysDeep = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(keysDeep);
  if (typeof value !== 'object' || value === null) return typeof value;
  return Object.entries(value).map(([key, inner]) => [key, keysDeep(inner)]);
};

t.test('the recorded qwen-image-plus request is answered in the legacy shape of the recording, as compact JSON', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, recorded.request_qwen_image_plus);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json');
  t.equal(answer.headers['content-length'], String(answer.body.length));
  const body = json(answer);
  t.equal(answer.body.toString('utf8'), JSON.stringify(body), 'compact JSON');
  t.strictSame(keysDeep(body), keysDeep(recorded.qwen_image_plus_legacy), 'the same keys, in the same order, with the same types');
  t.strictSame(body.usage, { width: 1328, image_count: 1, height: 1328 });
  t.strictSame(body.output.task_metric, { TOTAL: 1, FAILED: 0, SUCCEEDED: 1 });
  t.match(body.request_id, /^[0-9a-f-]{36}$/);
  t.match(body.output.choices[0].message.content[0].image, new RegExp(`^${fake.url}/results/${body.request_id}/0\\.png\\?Expires=\\d+&OSSAccessKeyId=[^&]+&Signature=`));
});

t.test('qwen-image-2 models answer in the newer shape of the recording, with token counts', async (t) => {
  const fake = await startFake(t);
  const body = json(await post(fake, textToImage({ model: 'qwen-image-2.0', parameters: { size: '1376*768' } })));
  t.strictSame(keysDeep(body), keysDeep(recorded.qwen_image_2_style));
  t.strictSame(body.usage, { image_count: 1, input_tokens: 0, output_tokens: 0, size: '1376*768', total_tokens: 0 });
  t.equal(body.output.finished, true);
  t.equal(body.output.choices[0].message.content[0].type, 'image');
});

t.test('an image URL serves a real PNG to a plain GET without a key, and spends no scripted behaviour', async (t) => {
  const fake = await startFake(t);
  const url = json(await post(fake, textToImage())).output.choices[0].message.content[0].image as string;
  fake.next({ error: 500 });
  const download = await send(url, 'GET');
  t.equal(download.status, 200);
  t.equal(download.headers['content-type'], 'image/png');
  t.strictSame([...download.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  t.strictSame(download.body, Buffer.from(samplePng));
  t.equal((await post(fake, textToImage())).status, 500, 'the queued behaviour went to the next API call');
  const missing = await send(`${fake.url}/results/00000000-0000-0000-0000-000000000000/0.png`, 'GET');
  t.equal(missing.status, 404);
  t.match(missing.body.toString('utf8'), /<Code>NoSuchKey<\/Code>/);
});

t.test('an edit answers n choices and keeps each result with its input images in the order sent', async (t) => {
  const fake = await startFake(t);
  const images = ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=', 'https://example.com/c.jpg'];
  const body = json(await post(fake, edit(images, { n: 3 })));
  t.equal(body.output.choices.length, 3);
  t.strictSame(body.output.task_metric, { TOTAL: 3, FAILED: 0, SUCCEEDED: 3 });
  t.equal(body.usage.image_count, 3);
  for (const [index, choice] of body.output.choices.entries()) {
    const made = fake.results.get(new URL(choice.message.content[0].image).pathname);
    t.match(made, { index, model: 'qwen-image-edit-plus', prompt: 'make it blue', inputImages: images, size: '1024*1024' });
  }
});

t.test('a key that is missing or wrong gets DashScope’s own 401 body', async (t) => {
  const fake = await startFake(t);
  const missing = await send(`${fake.url}${imageGenerationPath}`, 'POST', textToImage(), { 'content-type': 'application/json' });
  t.equal(missing.status, 401);
  const missingBody = json(missing);
  t.strictSame(Object.keys(missingBody).sort(), Object.keys(lifecycle.create_error).sort());
  t.match(missingBody, { code: lifecycle.create_error.code, message: lifecycle.create_error.message });
  const wrong = await post(fake, textToImage(), { authorization: 'Bearer nope' });
  t.equal(wrong.status, 401);
  t.match(json(wrong), { code: 'InvalidApiKey', message: 'Invalid API-key provided.' });
});

t.test('requests the real path refuses are refused with its error body', async (t) => {
  const fake = await startFake(t);
  const refusals: Array<[string, Promise<RawAnswer>, string, RegExp | string]> = [
    ['n > 1 for qwen-image-plus', post(fake, textToImage({ parameters: { n: 2 } })), 'InvalidParameter', recorded.error.message],
    ['the async header', post(fake, textToImage(), { 'x-dashscope-async': 'enable' }), 'InvalidParameter', /does not support asynchronous calls/],
    ['no model', post(fake, textToImage({ model: undefined })), 'BadRequest.EmptyModel', /"model" missing/],
    ['no input', post(fake, textToImage({ input: undefined })), 'BadRequest.EmptyInput', /input parameter missing/],
    ['an image for a text-to-image model', post(fake, { ...edit(['https://example.com/a.png']), model: 'qwen-image-plus' }), 'InvalidParameter', /does not accept input images/],
    ['an edit without images', post(fake, edit([])), 'InvalidParameter', /between 1 and 3/],
    ['four images', post(fake, edit(['https://a/1.png', 'https://a/2.png', 'https://a/3.png', 'https://a/4.png'])), 'InvalidParameter', /between 1 and 3/],
    ['raw base64 instead of a data URI', post(fake, edit(['iVBORw0KGgo='])), 'InvalidURL', /data URI/],
    ['n = 7 for an edit', post(fake, edit(['https://a/1.png'], { n: 7 })), 'InvalidParameter', /between 1 and 6/],
    ['a size written WxH', post(fake, textToImage({ parameters: { size: '1328x1328' } })), 'InvalidParameter', /size/],
  ];
  for (const [what, answer, code, message] of refusals) {
    const settled = await answer;
    t.equal(settled.status, 400, what);
    t.match(json(settled), { code, message, request_id: String }, what);
  }
  t.equal(fake.results.size, 0, 'nothing was made');
});

t.test('moderation refusals are HTTP 400 with DataInspectionFailed or IPInfringementSuspect', async (t) => {
  const fake = await startFake(t);
  fake.next({ blocked: true });
  fake.next({ blocked: 'output' });
  fake.next({ blocked: 'ip' });
  const input = await post(fake, textToImage());
  t.equal(input.status, 400);
  t.match(json(input), { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' });
  t.match(json(await post(fake, textToImage())), { code: 'DataInspectionFailed', message: /^Output data/ });
  t.match(json(await post(fake, textToImage())), { code: 'IPInfringementSuspect' });
});

t.test('images: 0 answers 200 without any choice; fewer images than n count the rest as failed', async (t) => {
  const fake = await startFake(t);
  fake.next({ images: 0 });
  const empty = await post(fake, textToImage());
  t.equal(empty.status, 200);
  t.strictSame(json(empty).output.choices, []);
  fake.next({ images: 2 });
  const partial = json(await post(fake, edit(['https://a/1.png'], { n: 4 })));
  t.equal(partial.output.choices.length, 2);
  t.strictSame(partial.output.task_metric, { TOTAL: 4, FAILED: 2, SUCCEEDED: 2 });
});

t.test('scripted HTTP errors carry DashScope error bodies; json, usage and image type replace the defaults', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  fake.next({ error: 429, headers: { 'retry-after': '3' } });
  fake.next({ json: recorded.qwen_image_plus_legacy });
  fake.next({ usage: { image_count: 1, input_tokens: 5, output_tokens: 7, total_tokens: 12 }, imageContentType: 'text/html' });
  const failed = await post(fake, textToImage());
  t.equal(failed.status, 500);
  t.match(json(failed), { code: 'InternalError', request_id: String, message: String });
  const limited = await post(fake, textToImage());
  t.equal(limited.status, 429);
  t.equal(limited.headers['retry-after'], '3');
  t.match(json(limited), { code: 'Throttling.RateQuota' });
  t.strictSame(json(await post(fake, textToImage())), recorded.qwen_image_plus_legacy);
  const custom = json(await post(fake, textToImage()));
  t.strictSame(custom.usage, { image_count: 1, input_tokens: 5, output_tokens: 7, total_tokens: 12 });
  const download = await send(custom.output.choices[0].message.content[0].image, 'GET');
  t.equal(download.headers['content-type'], 'text/html');
});

t.test('connection behaviours apply: a reset before headers, an unknown path, and the recorded requests', async (t) => {
  const fake = await startFake(t);
  fake.next({ resetBeforeHeaders: true });
  const reset = await post(fake, textToImage());
  t.ok(reset.error, 'the socket was destroyed');
  const unknown = await send(`${fake.url}/api/v1/services/aigc/text2image/image-synthesis`, 'POST', {}, { authorization: `Bearer ${apiKey}` });
  t.equal(unknown.status, 404);
  t.match(json(unknown), { code: 'NotFound' });
  t.equal(fake.requests.length, 2);
  t.equal(fake.requests[0]!.headers.authorization, `Bearer ${apiKey}`);
  t.strictSame(fake.requests[0]!.json, textToImage());
  fake.reset();
  t.equal(fake.requests.length, 0);
});
