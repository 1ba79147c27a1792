import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { rawRequest, type RawAnswer } from '../../helpers/raw-request.js';
import { arkVideoTokens, sampleJpeg, startFakeArkUpstream, type ArkBehaviour, type FakeArkUpstream } from './fake-ark-upstream.js';

const apiKey = 'ark-video-unit-key';
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/dsx/${name}`, import.meta.url), 'utf8'));
const recordedTask = fixture('ark-seedance-task-succeeded.json') as Record<string, unknown>;
const createBodies = fixture('ark-seedance-create-requests.json') as Record<string, Record<string, unknown>>;

const send = rawRequest;

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));
const bearer = { authorization: `Bearer ${apiKey}` };

async function startFake(t: Test, models?: string[]): Promise<FakeArkUpstream> {
  const fake = await startFakeArkUpstream({ apiKey, models });
  t.teardown(() => fake.close());
  return fake;
}

const create = (fake: FakeArkUpstream, body: unknown, headers: Record<string, string> = bearer) =>
  send(`${fake.url}/api/v3/contents/generations/tasks`, 'POST', body, { ...headers, 'content-type': 'application/json' });
const get = (fake: FakeArkUpstream, id: string, headers: Record<string, string> = bearer) => send(`${fake.url}/api/v3/contents/generations/tasks/${id}`, 'GET', undefined, headers);

/** Creates a task with `behaviour` and returns its id. */
async function createTask(t: Test, fake: FakeArkUpstream, body: unknown, behaviour: ArkBehaviour = {}): Promise<string> {
  fake.next(behaviour);
  const created = await create(fake, body);
  t.equal(created.status, 200, 'the task is created');
  return json(created).id as string;
}

const textBody = (text: string, fields: Record<string, unknown> = {}) => ({ model: 'seedance-1-5-pro-251215', content: [{ type: 'text', text }], ...fields });

t.test('a create answers only the task id, shaped cgt-<timestamp>-<suffix>', async (t) => {
  const fake = await startFake(t);
  const created = await create(fake, createBodies.conventional);
  t.equal(created.status, 200);
  t.match(created.headers['content-type'], /^application\/json/);
  t.ok(created.headers['x-request-id'], 'a request id header');
  const body = json(created);
  t.strictSame(Object.keys(body), ['id']);
  t.match(body.id, /^cgt-\d{14}-[a-z0-9]{5}$/);
  t.ok(fake.tasks.has(body.id), 'the fake keeps the task');
});

t.test('each GET moves a task one state on: queued, running, then succeeded with the recorded keys', async (t) => {
  const fake = await startFake(t);
  const id = await createTask(t, fake, createBodies.conventional);
  const states: string[] = [];
  let last: Record<string, unknown> = {};
  for (let poll = 0; poll < 4; poll += 1) {
    const answer = await get(fake, id);
    t.equal(answer.status, 200);
    last = json(answer);
    states.push(last.status as string);
  }
  t.strictSame(states, ['queued', 'running', 'succeeded', 'succeeded'], 'a finished task stays finished');
  t.strictSame(Object.keys(last), Object.keys(recordedTask), 'the keys of fixture ark-seedance-task-succeeded.json, in its order');
  t.match(last, { id, model: 'seedance-1-5-pro-251215', resolution: '720p', ratio: '16:9', duration: 5, seed: 11, framespersecond: 24 });
  t.strictSame(last.usage, { completion_tokens: 108900, total_tokens: 108900 }, '720p for 5 s costs what the fixture reports');
});

t.test('queued and running answers carry neither content nor usage', async (t) => {
  const fake = await startFake(t);
  const id = await createTask(t, fake, textBody('a cat'));
  for (const status of ['queued', 'running']) {
    const body = json(await get(fake, id));
    t.equal(body.status, status);
    t.notOk('content' in body || 'usage' in body || 'error' in body, `nothing more while ${status}`);
  }
});

t.test('the video URL points back at the fake and serves mp4 bytes without a key, once the task succeeded', async (t) => {
  const fake = await startFake(t);
  const id = await createTask(t, fake, textBody('a cat'));
  const videoUrl = fake.tasks.get(id)!.videoUrl;
  t.equal((await send(videoUrl, 'GET')).status, 404, 'nothing to download before the task succeeded');
  await get(fake, id);
  await get(fake, id);
  const done = json(await get(fake, id));
  t.ok((done.content.video_url as string).startsWith(`${fake.url}/`), 'the URL is on the fake');
  t.match(done.content.video_url, /\.mp4\?X-Tos-Algorithm=/);
  const video = await send(done.content.video_url, 'GET');
  t.equal(video.status, 200);
  t.equal(video.headers['content-type'], 'video/mp4');
  t.equal(video.body.subarray(4, 8).toString('latin1'), 'ftyp', 'an ISO-BMFF ftyp box first');
  t.ok(video.body.includes(Buffer.from(id)), 'the bytes name their task');
});

t.test('the options come from the top-level fields or the text markers', async (t) => {
  const fake = await startFake(t);
  const marked = await createTask(t, fake, createBodies.legacy_text_markers);
  t.equal(fake.tasks.get(marked)!.plan.resolution, '720p');
  const fromMarkers = await createTask(t, fake, textBody('a cat --rs 1080p --ratio 9:16 --dur 10 --seed 7'));
  t.match(fake.tasks.get(fromMarkers)!.plan, { resolution: '1080p', ratio: '9:16', duration: 10, seed: 7 });
  const byFrames = await createTask(t, fake, textBody('a cat --frames 121 --rs 480p'));
  for (let poll = 0; poll < 3; poll += 1) await get(fake, byFrames);
  const done = json(await get(fake, byFrames));
  t.equal(done.frames, 121);
  t.notOk('duration' in done, 'frames replace the duration');
  t.equal(done.usage.completion_tokens, arkVideoTokens('480p', undefined, 121));
});

t.test('return_last_frame adds a last frame image that the fake serves', async (t) => {
  const fake = await startFake(t);
  const id = await createTask(t, fake, textBody('a cat', { return_last_frame: true }));
  for (let poll = 0; poll < 2; poll += 1) await get(fake, id);
  const done = json(await get(fake, id));
  const frame = await send(done.content.last_frame_url, 'GET');
  t.equal(frame.status, 200);
  t.strictSame(frame.body, sampleJpeg);
});

t.test('a scripted failure ends failed with error {code, message} and no content', async (t) => {
  const fake = await startFake(t);
  const cases: Array<[ArkBehaviour, string]> = [
    [{ taskOutcome: 'failed' }, 'InternalServiceError'],
    [{ taskOutcome: 'moderation' }, 'OutputVideoSensitiveContentDetected'],
    [{ taskOutcome: 'failed', taskError: { code: 'InputImageSensitiveContentDetected', message: 'flagged' } }, 'InputImageSensitiveContentDetected'],
  ];
  for (const [behaviour, code] of cases) {
    const id = await createTask(t, fake, textBody('a cat'), behaviour);
    t.equal(json(await get(fake, id)).status, 'queued');
    t.equal(json(await get(fake, id)).status, 'running');
    const failed = json(await get(fake, id));
    t.match(failed, { status: 'failed', error: { code, message: String } }, code);
    t.notOk('content' in failed || 'usage' in failed);
  }
});

t.test('cancelled and expired tasks go there straight from queued', async (t) => {
  const fake = await startFake(t);
  for (const outcome of ['cancelled', 'expired'] as const) {
    const id = await createTask(t, fake, textBody('a cat'), { taskOutcome: outcome });
    t.equal(json(await get(fake, id)).status, 'queued');
    t.equal(json(await get(fake, id)).status, outcome);
  }
});

t.test('taskTokens replaces the usage, and null leaves it out', async (t) => {
  const fake = await startFake(t);
  for (const [tokens, expected] of [[5000, { completion_tokens: 5000, total_tokens: 5000 }], [null, undefined]] as const) {
    const id = await createTask(t, fake, textBody('a cat'), { taskTokens: tokens });
    for (let poll = 0; poll < 2; poll += 1) await get(fake, id);
    t.same(json(await get(fake, id)).usage, expected);
  }
});

t.test('a vanished or forgotten task, and an unknown id, answer 404 with an Ark error body', async (t) => {
  const fake = await startFake(t);
  const vanished = await createTask(t, fake, textBody('a cat'), { taskOutcome: 'vanish' });
  const forgotten = await createTask(t, fake, textBody('a cat'));
  t.equal((await get(fake, forgotten)).status, 200);
  fake.forgetTask(forgotten);
  for (const id of [vanished, forgotten, 'cgt-20250101000000-nope1']) {
    const answer = await get(fake, id);
    t.equal(answer.status, 404, id);
    t.match(json(answer), { error: { code: 'ResourceNotFound', message: /Request id: 0217/, type: 'NotFound' } });
  }
});

t.test('bad requests get the Ark refusals: key, body, model, safety filter', async (t) => {
  const fake = await startFake(t, ['seedance-1-5-pro-251215']);
  const unauthorised = await create(fake, textBody('a cat'), { authorization: 'Bearer wrong' });
  t.equal(unauthorised.status, 401);
  t.match(json(unauthorised), { error: { code: 'AuthenticationError', type: 'Unauthorized' } });
  t.equal((await get(fake, 'cgt-x', { authorization: 'Bearer wrong' })).status, 401);

  const noContent = await create(fake, { model: 'seedance-1-5-pro-251215', content: [] });
  t.equal(noContent.status, 400);
  t.match(json(noContent), { error: { code: 'InvalidParameter', param: 'content', type: 'BadRequest' } });
  const badImage = await create(fake, { model: 'seedance-1-5-pro-251215', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] });
  t.match(json(badImage), { error: { code: 'InvalidParameter', param: 'content[0].image_url.url' } });
  const badRole = await create(fake, { model: 'seedance-1-5-pro-251215', content: [{ type: 'video_url', video_url: { url: 'asset://asset-1' }, role: 'first_frame' }] });
  t.match(json(badRole), { error: { code: 'InvalidParameter', param: 'content[0].role' } });

  const unknownModel = await create(fake, { ...textBody('a cat'), model: 'seedance-9' });
  t.equal(unknownModel.status, 404);
  t.match(json(unknownModel), { error: { code: 'InvalidEndpointOrModel.NotFound' } });

  fake.next({ blocked: 'input_text' });
  const blocked = await create(fake, textBody('a cat'));
  t.equal(blocked.status, 400);
  t.match(json(blocked), { error: { code: 'InputTextSensitiveContentDetected' } });
  t.equal(fake.tasks.size, 0, 'no refused create made a task');
});

t.test('a scripted status and scripted JSON replace an answer for one request', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  const failing = await create(fake, textBody('a cat'));
  t.equal(failing.status, 500);
  t.match(json(failing), { error: { code: 'InternalServiceError' } });
  const id = await createTask(t, fake, textBody('a cat'));
  fake.next({ json: { id, status: 'mystery' } });
  t.strictSame(json(await get(fake, id)), { id, status: 'mystery' });
  t.equal(json(await get(fake, id)).status, 'running', 'the scripted answer still counted as a poll');
});
