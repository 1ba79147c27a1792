import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { rawRequest, type RawAnswer } from '../../helpers/raw-request.js';
import {
  imageGenerationPath,
  moderationFailure,
  sampleMp4,
  startFakeDashScopeUpstream,
  taskPath,
  videoSynthesisPath,
  type FakeDashScopeUpstream,
} from './fake-dashscope-upstream.js';

const apiKey = 'dashscope-video-unit-key';
const lifecycle = JSON.parse(readFileSync(new URL('../../fixtures/wn/dashscope-video-task-lifecycle.json', import.meta.url), 'utf8'));
const happyHorse = JSON.parse(readFileSync(new URL('../../fixtures/hx/dashscope-happyhorse-requests.json', import.meta.url), 'utf8'));

const send = rawRequest;

const asyncHeaders = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable' };
const submit = (fake: FakeDashScopeUpstream, body: unknown, headers: Record<string, string> = asyncHeaders) => send(`${fake.url}${videoSynthesisPath}`, 'POST', body, headers);
const poll = (fake: FakeDashScopeUpstream, taskId: string, headers: Record<string, string> = { authorization: `Bearer ${apiKey}` }) => send(`${fake.url}${taskPath(taskId)}`, 'GET', undefined, headers);
const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

async function startFake(t: Test): Promise<FakeDashScopeUpstream> {
  const fake = await startFakeDashScopeUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

/** The key structure of a JSON value: the same keys in the same order, with the types of the leaves. */
const keysDeep = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(keysDeep);
  if (typeof value !== 'object' || value === null) return typeof value;
  return Object.entries(value).map(([key, inner]) => [key, keysDeep(inner)]);
};

const wanTextToVideo = {
  model: 'wan2.5-t2v-preview',
  input: { prompt: 'a kitten running in moonlight' },
  parameters: { size: '1280*720', duration: 5, prompt_extend: false },
};

/** Submits a valid task and returns its id. */
async function accepted(fake: FakeDashScopeUpstream, body: unknown = wanTextToVideo): Promise<string> {
  const answer = await submit(fake, body);
  if (answer.status !== 200) throw new Error(`not accepted: ${answer.body.toString()}`);
  return json(answer).output.task_id as string;
}

/** The statuses of `count` polls in a row. */
async function statuses(fake: FakeDashScopeUpstream, taskId: string, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let index = 0; index < count; index += 1) seen.push(json(await poll(fake, taskId)).output.task_status);
  return seen;
}

t.test('a submit without X-DashScope-Async is refused with DashScope’s own words, and no task is made', async (t) => {
  const fake = await startFake(t);
  const answer = await submit(fake, wanTextToVideo, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  t.equal(answer.status, 403);
  t.match(json(answer), { code: 'AccessDenied', message: 'current user api does not support synchronous calls', request_id: String });
  t.equal(fake.videoTasks.size, 0);
  const disabled = await submit(fake, wanTextToVideo, { ...asyncHeaders, 'x-dashscope-async': 'disable' });
  t.equal(disabled.status, 403, 'only "enable" turns it on');
});

t.test('a submit is answered like the recorded create response, as compact JSON', async (t) => {
  const fake = await startFake(t);
  const answer = await submit(fake, wanTextToVideo);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json');
  const body = json(answer);
  t.equal(answer.body.toString('utf8'), JSON.stringify(body));
  t.strictSame(keysDeep(body), keysDeep(lifecycle.create_response));
  t.equal(body.output.task_status, 'PENDING');
  t.match(body.output.task_id, /^[0-9a-f-]{36}$/);
  t.strictSame(fake.videoTasks.get(body.output.task_id)?.request.parameters, wanTextToVideo.parameters, 'the task keeps the request');
});

t.test('a task moves PENDING → RUNNING → SUCCEEDED, one state per poll, then stays SUCCEEDED', async (t) => {
  const fake = await startFake(t);
  const taskId = await accepted(fake);
  const pending = json(await poll(fake, taskId));
  t.match(pending, { request_id: String, output: { task_id: taskId, task_status: 'PENDING', submit_time: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/ } });
  t.match(json(await poll(fake, taskId)), { output: { task_status: 'RUNNING', scheduled_time: String } });
  const succeeded = json(await poll(fake, taskId));
  t.strictSame(Object.keys(succeeded), Object.keys(lifecycle.succeeded), 'request_id, output, usage');
  t.strictSame(Object.keys(succeeded.output), ['task_id', 'task_status', 'submit_time', 'scheduled_time', 'end_time', 'orig_prompt', 'video_url']);
  t.equal(succeeded.output.orig_prompt, 'a kitten running in moonlight');
  t.match(succeeded.output.video_url, new RegExp(`^${fake.url}/videos/${taskId}\\.mp4\\?Expires=\\d+&OSSAccessKeyId=.+&Signature=`));
  t.strictSame(Object.keys(succeeded.usage), Object.keys(lifecycle.succeeded.usage), 'a flat-input model reports usage like the recorded one');
  t.match(succeeded.usage, { duration: 5, size: '1280*720', output_video_duration: 5, video_count: 1, SR: 720 });
  t.strictSame(await statuses(fake, taskId, 2), ['SUCCEEDED', 'SUCCEEDED']);
  t.equal(fake.videoTasks.get(taskId)?.polls, 5);
});

t.test('the video URL serves MP4 bytes with an ftyp box to a plain GET, spending no behaviour', async (t) => {
  const fake = await startFake(t);
  const taskId = await accepted(fake);
  const early = await send(`${fake.url}/videos/${taskId}.mp4`, 'GET');
  t.equal(early.status, 404, 'nothing to download before it succeeded');
  t.match(early.body.toString(), /NoSuchKey/);
  await statuses(fake, taskId, 2);
  const videoUrl = json(await poll(fake, taskId)).output.video_url as string;
  fake.next({ error: 500 });
  const download = await send(videoUrl, 'GET');
  t.equal(download.status, 200);
  t.equal(download.headers['content-type'], 'video/mp4');
  t.strictSame(download.body, Buffer.from(sampleMp4));
  t.equal(download.body.subarray(4, 8).toString('latin1'), 'ftyp');
  t.equal((await poll(fake, taskId)).status, 500, 'the queued behaviour was left for the next API request');
});

t.test('media-protocol models report usage with the keys of the recorded wan answer', async (t) => {
  const fake = await startFake(t);
  const taskId = await accepted(fake, { ...happyHorse.r2v });
  await statuses(fake, taskId, 2);
  const succeeded = json(await poll(fake, taskId));
  t.strictSame(Object.keys(succeeded.usage), Object.keys(lifecycle.real_wan_succeeded.usage));
  t.match(succeeded.usage, { SR: 720, duration: 5, ratio: '9:16', video_count: 1 });
  t.equal(succeeded.output.orig_prompt, happyHorse.r2v.input.prompt);
});

t.test('a scripted usage replaces the fake’s own in the SUCCEEDED answer', async (t) => {
  const fake = await startFake(t);
  fake.next({ usage: { duration: 10.0, SR: '1080', video_count: 1 } });
  const taskId = await accepted(fake);
  await statuses(fake, taskId, 2);
  t.strictSame(json(await poll(fake, taskId)).usage, { duration: 10, SR: '1080', video_count: 1 });
});

t.test('taskEnd FAILED answers the task failure like the recorded one; moderationFailure is DataInspectionFailed', async (t) => {
  const fake = await startFake(t);
  fake.next({ taskEnd: 'FAILED', taskFailure: moderationFailure });
  const blocked = await accepted(fake);
  t.strictSame(await statuses(fake, blocked, 2), ['PENDING', 'RUNNING']);
  const failed = json(await poll(fake, blocked));
  t.strictSame(keysDeep(failed), keysDeep(lifecycle.failed));
  t.match(failed.output, { task_status: 'FAILED', code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' });
  fake.next({ taskEnd: 'FAILED' });
  const broken = await accepted(fake);
  await statuses(fake, broken, 2);
  t.match(json(await poll(fake, broken)).output, { code: 'InternalError' }, 'the default failure');
});

t.test('taskEnd CANCELED and taskSteps script the other ends', async (t) => {
  const fake = await startFake(t);
  fake.next({ taskEnd: 'CANCELED' });
  const canceled = await accepted(fake);
  t.strictSame(await statuses(fake, canceled, 4), ['PENDING', 'RUNNING', 'CANCELED', 'CANCELED']);
  t.match(json(await poll(fake, canceled)).output, { task_status: 'CANCELED', end_time: String });
  fake.next({ taskSteps: ['RUNNING', 'SUSPENDED', 'SUCCEEDED'] });
  const scripted = await accepted(fake);
  t.strictSame(await statuses(fake, scripted, 3), ['RUNNING', 'SUSPENDED', 'SUCCEEDED']);
});

t.test('a task that reaches UNKNOWN is forgotten, and unknown ids answer UNKNOWN with HTTP 200 like the recorded one', async (t) => {
  const fake = await startFake(t);
  fake.next({ taskEnd: 'UNKNOWN' });
  const lost = await accepted(fake);
  t.strictSame(await statuses(fake, lost, 4), ['PENDING', 'RUNNING', 'UNKNOWN', 'UNKNOWN']);
  t.equal(fake.videoTasks.get(lost)?.forgotten, true);
  const stranger = await poll(fake, '502a00b1-19d9-4839-a82f-000000000000');
  t.equal(stranger.status, 200);
  t.strictSame(keysDeep(json(stranger)), keysDeep(lifecycle.unknown_expired));
  t.equal(json(stranger).output.task_id, '502a00b1-19d9-4839-a82f-000000000000');
});

t.test('a scripted error answers one poll with DashScope’s error body and the task does not move on', async (t) => {
  const fake = await startFake(t);
  const taskId = await accepted(fake);
  fake.next({ error: 404 });
  const missing = await poll(fake, taskId);
  t.equal(missing.status, 404);
  t.match(json(missing), { code: 'ModelNotFound', request_id: String });
  fake.next({ status: 503 });
  t.equal((await poll(fake, taskId)).status, 503);
  t.strictSame(await statuses(fake, taskId, 1), ['PENDING'], 'the first real answer is still PENDING');
});

t.test('polls check the key like every other API request', async (t) => {
  const fake = await startFake(t);
  const taskId = await accepted(fake);
  const missing = await poll(fake, taskId, {});
  t.equal(missing.status, 401);
  t.match(json(missing), { code: lifecycle.create_error.code, message: lifecycle.create_error.message });
  t.equal((await poll(fake, taskId, { authorization: 'Bearer nope' })).status, 401);
  t.equal(fake.videoTasks.get(taskId)?.polls, 0);
});

t.test('blocked refuses a submit at once with HTTP 400 DataInspectionFailed', async (t) => {
  const fake = await startFake(t);
  fake.next({ blocked: true });
  const answer = await submit(fake, wanTextToVideo);
  t.equal(answer.status, 400);
  t.match(json(answer), { code: 'DataInspectionFailed', message: /Input data/ });
  t.equal(fake.videoTasks.size, 0);
});

t.test('the recorded HappyHorse requests are accepted, and the image path still answers images', async (t) => {
  const fake = await startFake(t);
  for (const name of ['t2v', 'i2v', 'r2v']) t.equal((await submit(fake, happyHorse[name])).status, 200, name);
  const image = await send(`${fake.url}${imageGenerationPath}`, 'POST', { model: 'qwen-image-plus', input: { messages: [{ role: 'user', content: [{ text: 'a cat' }] }] } }, { authorization: `Bearer ${apiKey}` });
  t.equal(image.status, 200);
});

t.test('submits the real endpoint refuses are refused with its error body', async (t) => {
  const fake = await startFake(t);
  const wan27 = (input: Record<string, unknown>, parameters: Record<string, unknown> = {}, model = 'wan2.7-i2v') => ({ model, input, parameters });
  const frame = { type: 'first_frame', url: 'https://example.com/a.png' };
  const cases: Array<[string, unknown, number, string, RegExp]> = [
    ['no model', { input: { prompt: 'x' } }, 400, 'BadRequest.EmptyModel', /"model" missing/],
    ['an unknown model', { model: 'video-edit-9', input: { prompt: 'x' } }, 404, 'ModelNotFound', /Model not exist/],
    ['no input', { model: 'wan2.5-t2v-preview' }, 400, 'BadRequest.EmptyInput', /input parameter missing/],
    ['t2v without a prompt', { model: 'wan2.5-t2v-preview', input: {} }, 400, 'InvalidParameter', /input\.prompt is required/],
    ['a bad size', { ...wanTextToVideo, parameters: { size: '1280x720' } }, 400, 'InvalidParameter', /size is not match/],
    ['wan2.5 duration 7', { ...wanTextToVideo, parameters: { duration: 7 } }, 400, 'InvalidParameter', /parameters\.duration/],
    ['i2v without img_url', { model: 'wan2.5-i2v-preview', input: { prompt: 'x' } }, 400, 'InvalidURL', /img_url/],
    ['i2v with a lower-case resolution', { model: 'wan2.5-i2v-preview', input: { img_url: 'https://e.com/a.png' }, parameters: { resolution: '720p' } }, 400, 'InvalidParameter', /480P, 720P, 1080P/],
    ['a seed out of range', { ...wanTextToVideo, parameters: { seed: -1 } }, 400, 'InvalidParameter', /seed/],
    ['a last frame alone', wan27({ media: [{ type: 'last_frame', url: 'https://e.com/b.png' }] }), 400, 'InvalidParameter', /first_frame or one first_clip/],
    ['two first frames', wan27({ media: [frame, frame] }), 400, 'InvalidParameter', /Too many/],
    ['a ratio on i2v', wan27({ media: [frame] }, { ratio: '16:9' }), 400, 'InvalidParameter', /ratio is not supported/],
    ['wan2.7 at 480P', wan27({ media: [frame] }, { resolution: '480P' }), 400, 'InvalidParameter', /720P or 1080P/],
    ['a media type of another model', wan27({ prompt: 'x', media: [frame] }, {}, 'wan2.7-t2v'), 400, 'InvalidParameter', /not supported by wan2\.7-t2v/],
    ['r2v with 6 references', wan27({ prompt: 'x', media: Array(6).fill({ type: 'reference_image', url: 'https://e.com/c.png' }) }, {}, 'wan2.7-r2v'), 400, 'InvalidParameter', /Too many/],
    ['r2v with videos over 10 s', wan27({ prompt: 'x', media: [{ type: 'reference_video', url: 'https://e.com/v.mp4' }] }, { duration: 12 }, 'wan2.7-r2v'), 400, 'InvalidParameter', /2 to 10/],
    ['happyhorse i2v without its frame', { ...happyHorse.i2v, input: { prompt: 'x' } }, 400, 'InvalidParameter', /exactly one first_frame/],
    ['happyhorse at 2 s', { ...happyHorse.t2v, parameters: { duration: 2 } }, 400, 'InvalidParameter', /3 to 15/],
    ['happyhorse 9:21 on i2v', { ...happyHorse.i2v, parameters: { ratio: '9:21' } }, 400, 'InvalidParameter', /ratio is not supported/],
    ['a media URL that is not http(s)', wan27({ media: [{ type: 'first_frame', url: 'oss://bucket/a.png' }] }), 400, 'InvalidURL', /url/],
  ];
  for (const [name, body, status, code, message] of cases) {
    const answer = await submit(fake, body);
    t.equal(answer.status, status, name);
    t.match(json(answer), { code, message }, name);
  }
  t.equal(fake.videoTasks.size, 0, 'no task was made');
  t.equal(fake.requests.length, cases.length, 'every request was recorded');
});
