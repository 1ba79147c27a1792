import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { fakeMp4, startFakeOpenAiUpstream, videoBehaviours, type FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { recordedVideoForm } from './videos-request.js';

const apiKey = 'openai-videos-unit-key';
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/sr/openai-videos-objects.json', import.meta.url), 'utf8'));
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);

async function startFake(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

async function send(fake: FakeOpenAiUpstream, method: string, path: string, body?: string | FormData, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${fake.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, ...headers }, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, json };
}

const create = (fake: FakeOpenAiUpstream, body: unknown) => send(fake, 'POST', '/v1/videos', JSON.stringify(body), { 'content-type': 'application/json' });
const retrieve = (fake: FakeOpenAiUpstream, id: string) => send(fake, 'GET', `/v1/videos/${id}`);

function form(fields: Record<string, string>, file?: { bytes: Uint8Array; type: string; name?: string }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file !== undefined) data.append('input_reference', new Blob([file.bytes], { type: file.type }), file.name ?? 'reference.png');
  return data;
}

t.test('a new video is queued and shows every key of the fixture’s schema-complete object, in its order', async (t) => {
  const fake = await startFake(t);
  const answer = await create(fake, { model: 'sora-2', prompt: 'A calico cat playing a piano on stage', seconds: '8', size: '1280x720' });
  t.equal(answer.status, 200);
  t.match(answer.headers.get('content-type'), /^application\/json/);
  t.strictSame(Object.keys(answer.json), Object.keys(fixture.completed_schema_complete));
  t.match(answer.json, {
    id: /^video_[0-9a-f]{48}$/,
    object: 'video',
    model: 'sora-2',
    status: 'queued',
    progress: 0,
    completed_at: null,
    expires_at: null,
    prompt: 'A calico cat playing a piano on stage',
    size: '1280x720',
    seconds: '8',
    remixed_from_video_id: null,
    error: null,
  });
  t.ok(Number.isInteger(answer.json.created_at) && answer.json.created_at > 1_700_000_000, 'created_at is unix seconds');
});

t.test('defaults: sora-2, 4 seconds, portrait 720x1280', async (t) => {
  const fake = await startFake(t);
  t.match((await create(fake, { prompt: 'x' })).json, { model: 'sora-2', seconds: '4', size: '720x1280' });
});

t.test('each poll moves a video one step: in_progress with progress, then completed, and it stays completed', async (t) => {
  const fake = await startFake(t);
  const { id } = (await create(fake, { model: 'sora-2', prompt: 'x' })).json;
  t.match((await retrieve(fake, id)).json, { id, status: 'in_progress', progress: 50, completed_at: null });
  const done = (await retrieve(fake, id)).json;
  t.match(done, { id, status: 'completed', progress: 100, error: null });
  t.equal(done.expires_at - done.created_at, 86_400, 'the assets last a day, as in the fixture');
  t.ok(done.completed_at >= done.created_at);
  t.match((await retrieve(fake, id)).json, { status: 'completed', progress: 100 });
});

t.test('a scripted video walks the given steps, with progress growing through in_progress', async (t) => {
  const fake = await startFake(t);
  fake.next(videoBehaviours.steps('queued', 'in_progress', 'in_progress', 'completed'));
  const { id } = (await create(fake, { prompt: 'x' })).json;
  const seen = [];
  for (let poll = 0; poll < 4; poll += 1) {
    const { status, progress } = (await retrieve(fake, id)).json;
    seen.push(`${status}:${progress}`);
  }
  t.strictSame(seen, ['queued:0', 'in_progress:50', 'in_progress:75', 'completed:100']);
});

t.test('a failing video reports failed with the scripted error code and message', async (t) => {
  const fake = await startFake(t);
  fake.next(videoBehaviours.fails());
  const { id } = (await create(fake, { prompt: 'x' })).json;
  await retrieve(fake, id);
  const failed = (await retrieve(fake, id)).json;
  t.match(failed, { status: 'failed', error: { code: 'video_generation_failed', message: /failed/ }, expires_at: null });
  t.ok(Number.isInteger(failed.completed_at));
});

t.test('a moderation failure looks like the fixture’s failed object', async (t) => {
  const fake = await startFake(t);
  fake.next(videoBehaviours.moderationBlocked('blocked: try another prompt'));
  const { id } = (await create(fake, { prompt: 'x' })).json;
  await retrieve(fake, id);
  const failed = (await retrieve(fake, id)).json;
  t.strictSame(Object.keys(failed), Object.keys(fixture.failed_schema_complete));
  t.match(failed, { status: 'failed', error: { code: fixture.failed_schema_complete.error.code, message: 'blocked: try another prompt' } });
});

t.test('a vanished video answers 404 with an OpenAI error body from then on', async (t) => {
  const fake = await startFake(t);
  fake.next(videoBehaviours.vanishes());
  const { id } = (await create(fake, { prompt: 'x' })).json;
  for (const answer of [await retrieve(fake, id), await retrieve(fake, id), await send(fake, 'GET', `/v1/videos/${id}/content`)]) {
    t.equal(answer.status, 404);
    t.match(answer.json, { error: { message: new RegExp(id), type: 'invalid_request_error' } });
  }
  t.equal((await retrieve(fake, 'video_unknown')).status, 404);
});

t.test('content: 404 until completed, then the mp4 bytes; thumbnail and spritesheet are webp', async (t) => {
  const fake = await startFake(t);
  const { id } = (await create(fake, { prompt: 'x' })).json;
  const early = await send(fake, 'GET', `/v1/videos/${id}/content`);
  t.equal(early.status, 404);
  t.match(early.json, { error: { message: /not ready/ } });
  await retrieve(fake, id);
  await retrieve(fake, id);
  const video = await send(fake, 'GET', `/v1/videos/${id}/content`);
  t.equal(video.status, 200);
  t.equal(video.headers.get('content-type'), 'video/mp4');
  t.strictSame(video.bytes, fakeMp4(id));
  t.equal(video.bytes.subarray(4, 8).toString('latin1'), 'ftyp', 'an ftyp box first, as an mp4 starts');
  t.equal(video.headers.get('content-length'), String(video.bytes.length));
  const thumbnail = await send(fake, 'GET', `/v1/videos/${id}/content?variant=thumbnail`);
  t.equal(thumbnail.headers.get('content-type'), 'image/webp');
  t.equal(thumbnail.bytes.subarray(8, 12).toString('latin1'), 'WEBP');
  t.equal((await send(fake, 'GET', `/v1/videos/${id}/content?variant=poster`)).status, 400);
});

t.test('content and polls want the same Bearer key', async (t) => {
  const fake = await startFake(t);
  const { id } = (await create(fake, { prompt: 'x' })).json;
  const response = await fetch(`${fake.url}/v1/videos/${id}`, { headers: { authorization: 'Bearer wrong' } });
  t.equal(response.status, 401);
  t.match(await response.json(), { error: { code: 'invalid_api_key' } });
});

t.test('a remix of a completed video is a new queued video with remixed_from_video_id and the original’s length and size', async (t) => {
  const fake = await startFake(t);
  const original = (await create(fake, { model: 'sora-2', prompt: 'x', seconds: '12', size: '1280x720' })).json;
  const early = await send(fake, 'POST', `/v1/videos/${original.id}/remix`, JSON.stringify({ prompt: 'now at night' }), { 'content-type': 'application/json' });
  t.equal(early.status, 400, 'only completed videos can be remixed');
  await retrieve(fake, original.id);
  await retrieve(fake, original.id);
  const remix = await send(fake, 'POST', `/v1/videos/${original.id}/remix`, JSON.stringify({ prompt: 'now at night' }), { 'content-type': 'application/json' });
  t.equal(remix.status, 200);
  t.match(remix.json, { id: /^video_/, status: 'queued', progress: 0, prompt: 'now at night', seconds: '12', size: '1280x720', remixed_from_video_id: original.id });
  t.not(remix.json.id, original.id);
  const multipart = await send(fake, 'POST', `/v1/videos/${original.id}/remix`, form({ prompt: 'again' }));
  t.match(multipart.json, { status: 'queued', remixed_from_video_id: original.id });
  t.equal((await send(fake, 'POST', '/v1/videos/video_missing/remix', JSON.stringify({ prompt: 'x' }), { 'content-type': 'application/json' })).status, 404);
  const extra = await send(fake, 'POST', `/v1/videos/${original.id}/remix`, JSON.stringify({ prompt: 'x', seconds: '4' }), { 'content-type': 'application/json' });
  t.match(extra.json, { error: { code: 'unknown_parameter', param: 'seconds' } });
});

t.test('multipart creates take the reference image as the file input_reference', async (t) => {
  const fake = await startFake(t);
  const answer = await send(fake, 'POST', '/v1/videos', form({ model: 'sora-2', prompt: 'x', seconds: '8', size: '720x1280' }, { bytes: png, type: 'image/png' }));
  t.equal(answer.status, 200);
  t.match(answer.json, { status: 'queued', seconds: '8' });
  const file = (await recordedVideoForm(fake.requests.at(-1)!)).get('input_reference') as File;
  t.equal(file.type, 'image/png');
  t.strictSame(Buffer.from(await file.arrayBuffer()), png);
  const gif = await send(fake, 'POST', '/v1/videos', form({ prompt: 'x' }, { bytes: Buffer.from('GIF89a'), type: 'image/gif', name: 'a.gif' }));
  t.equal(gif.status, 400);
  t.match(gif.json, { error: { param: 'input_reference', message: /unsupported mimetype \('image\/gif'\)/ } });
});

t.test('JSON creates take input_reference as exactly one of image_url and file_id', async (t) => {
  const fake = await startFake(t);
  t.equal((await create(fake, { prompt: 'x', input_reference: { image_url: 'https://example.com/a.png' } })).status, 200);
  t.equal((await create(fake, { prompt: 'x', input_reference: { file_id: 'file-abc' } })).status, 200);
  const both = await create(fake, { prompt: 'x', input_reference: { image_url: 'https://example.com/a.png', file_id: 'file-abc' } });
  t.match(both.json, { error: { param: 'input_reference', code: 'invalid_value' } });
  const http = await create(fake, { prompt: 'x', input_reference: { image_url: 'http://example.com/a.png' } });
  t.match(http.json, { error: { param: 'input_reference.image_url' } });
});

t.test('invalid creates are refused with OpenAI’s error bodies naming the parameter', async (t) => {
  const fake = await startFake(t);
  const cases: Array<[unknown, string, string]> = [
    [{}, 'prompt', 'missing_required_parameter'],
    [{ prompt: 5 }, 'prompt', 'invalid_type'],
    [{ prompt: 'x'.repeat(32_001) }, 'prompt', 'string_above_max_length'],
    [{ prompt: 'x', seconds: 8 }, 'seconds', 'invalid_type'],
    [{ prompt: 'x', seconds: '5' }, 'seconds', 'invalid_value'],
    [{ prompt: 'x', size: '1024x1024' }, 'size', 'invalid_value'],
    [{ prompt: 'x', size: '1792x1024' }, 'size', 'invalid_value'],
    [{ prompt: 'x', model: 'sora-3' }, 'model', 'invalid_value'],
    [{ prompt: 'x', duration: 8 }, 'duration', 'unknown_parameter'],
  ];
  for (const [body, param, code] of cases) {
    const answer = await create(fake, body);
    t.equal(answer.status, 400, `${JSON.stringify(body).slice(0, 60)} is refused`);
    t.match(answer.json, { error: { type: 'invalid_request_error', param, code } });
    t.strictSame(Object.keys(answer.json.error), ['message', 'type', 'param', 'code']);
  }
  t.equal((await create(fake, { prompt: 'x', model: 'sora-2-pro', size: '1792x1024' })).status, 200, 'pro models take the larger sizes');
});

t.test('scripted HTTP errors apply to video routes like to every other route', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  t.equal((await create(fake, { prompt: 'x' })).status, 500);
  const { id } = (await create(fake, { prompt: 'x' })).json;
  fake.next({ error: 429 });
  t.equal((await retrieve(fake, id)).status, 429);
  t.match((await retrieve(fake, id)).json, { status: 'in_progress' }, 'a failed poll does not move the video');
});

t.test('unknown methods and paths under /v1/videos are 404 Invalid URL', async (t) => {
  const fake = await startFake(t);
  const answer = await send(fake, 'DELETE', '/v1/videos/video_x/content');
  t.equal(answer.status, 404);
  t.match(answer.json, { error: { message: /Invalid URL/ } });
});
