import t, { type Test } from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import {
  moderationFailure,
  sampleMp4,
  samplePng,
  samplePngBase64,
  startFakeDashScopeUpstream,
  videoSynthesisPath,
  type FakeDashScopeUpstream,
} from '../fakes/dashscope/fake-dashscope-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken, type StoredToken } from '../helpers/gateway-scenario.js';

// wn2.5 costs 0.10 USD a second (50000 quota units), half at 480p and twice at 1080p;
// wn2.7 costs 0.20 USD a second (100000 units), 1.5 times at 1080p.
const pricing = {
  ...scenarioPricing,
  'wn2.5-*': { per_second: 0.1, resolution_multipliers: { '480p': 0.5, '720p': 1, '1080p': 2 } },
  'wn2.7-*': { per_second: 0.2, resolution_multipliers: { '720p': 1, '1080p': 1.5 } },
};
const wn25Units = (seconds: number, multiplier = 1) => seconds * 50_000 * multiplier;
const wn27Units = (seconds: number, multiplier = 1) => seconds * 100_000 * multiplier;

const upstreamKey = 'dashscope-upstream-key';
const modelMap = {
  'wn2.5-t2v-preview': 'wan2.5-t2v-preview',
  'wn2.5-i2v-preview': 'wan2.5-i2v-preview',
  'wn2.7-t2v-2026-04-25': 'wan2.7-t2v-2026-04-25',
  'wn2.7-i2v-2026-04-25': 'wan2.7-i2v-2026-04-25',
  'wn2.7-r2v': 'wan2.7-r2v',
};

async function startDashScope(t: Test): Promise<FakeDashScopeUpstream> {
  const fake = await startFakeDashScopeUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

const wnChannel = (name: string, baseUrl: string, priority: number) => ({
  name,
  plugin: 'wn',
  base_url: baseUrl,
  api_key: upstreamKey,
  models: Object.keys(modelMap),
  model_map: modelMap,
  groups: ['default'],
  priority,
});

/** The gateway with one wn channel per fake, the first fake first; polls reach the upstream every time. */
async function wnGateway(t: Test, fakes: FakeDashScopeUpstream[]): Promise<{ gateway: TestApp; token: IssuedToken }> {
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: fakes.map((fake, index) => wnChannel(`wn-${index + 1}`, fake.url, fakes.length - index)),
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
  });
  return { gateway, token: await issueToken(t, gateway) };
}

const submit = (gateway: TestApp, token: IssuedToken, body: Record<string, unknown>): Promise<LightMyRequestResponse> =>
  gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: body });
const poll = async (gateway: TestApp, token: IssuedToken, id: string) => (await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer })).json();

/** Submits a task that must be accepted and returns its id. */
async function accepted(t: Test, gateway: TestApp, token: IssuedToken, body: Record<string, unknown>): Promise<string> {
  const response = await submit(gateway, token, body);
  t.equal(response.statusCode, 200, response.payload);
  t.match(response.json(), { task_id: /^video_[0-9A-Za-z]{24}$/, status: 'submitted', format: 'mp4', model: body.model });
  return response.json().task_id as string;
}

/** The quota the token gave up between `before` and now: what it used, and what left its remaining balance. */
async function spent(gateway: TestApp, token: IssuedToken, before: StoredToken): Promise<{ used: number; remainDrop: number }> {
  const after = await storedToken(gateway, token);
  return { used: after.used_quota - before.used_quota, remainDrop: before.remain_quota - after.remain_quota };
}

const submits = (fake: FakeDashScopeUpstream) => fake.requests.filter((request) => request.path === videoSynthesisPath);
const polls = (fake: FakeDashScopeUpstream) => fake.requests.filter((request) => request.path.startsWith('/api/v1/tasks/'));

t.test('wn2.5-t2v-preview goes submitted → queued → in_progress → succeeded and is billed from the upstream’s usage', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const id = await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'a kitten running in moonlight', duration: 10, resolution: '1080p', seed: 7 });

  const sent = submits(fake)[0]!;
  t.equal(sent.method, 'POST');
  t.equal(sent.headers['x-dashscope-async'], 'enable');
  t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
  t.strictSame(sent.json, {
    model: 'wan2.5-t2v-preview',
    input: { prompt: 'a kitten running in moonlight' },
    parameters: { size: '1920*1080', duration: 10, prompt_extend: false, audio: false, seed: 7 },
  });
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: wn25Units(10, 2) }, '10 seconds at 1080p are held');

  t.match(await poll(gateway, token, id), { task_id: id, status: 'queued', format: 'mp4', seconds: 10, resolution: '1080p', size: '1920*1080' });
  t.match(await poll(gateway, token, id), { status: 'in_progress' });
  const done = await poll(gateway, token, id);
  const upstreamTaskId = [...fake.videoTasks.keys()][0]!;
  t.match(done, { status: 'succeeded', progress: 100, url: new RegExp(`^${fake.url}/videos/${upstreamTaskId}\\.mp4\\?Expires=`) });
  const asked = polls(fake);
  t.equal(asked.length, 3);
  t.equal(asked[0]!.path, `/api/v1/tasks/${upstreamTaskId}`);
  t.equal(asked[0]!.headers.authorization, `Bearer ${upstreamKey}`);
  t.equal(asked[0]!.headers['x-dashscope-async'], undefined, 'polls carry only the key');

  const video = await fetch(done.url);
  t.equal(video.headers.get('content-type'), 'video/mp4');
  t.strictSame(Buffer.from(await video.arrayBuffer()), Buffer.from(sampleMp4), 'the URL serves the MP4');
  t.strictSame(await spent(gateway, token, before), { used: wn25Units(10, 2), remainDrop: wn25Units(10, 2) }, 'charged once, on success');
  await poll(gateway, token, id);
  t.equal(polls(fake).length, 3, 'a finished task is not asked about again');
});

t.test('wn2.5-i2v-preview sends its image as img_url: a URL, or a multipart file as a data URI', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const id = await accepted(t, gateway, token, { model: 'wn2.5-i2v-preview', prompt: 'the cat dances', image: 'https://cdn.example.com/cat.png', resolution: '480p', smart_rewrite: true });
  t.strictSame(submits(fake)[0]!.json, {
    model: 'wan2.5-i2v-preview',
    input: { prompt: 'the cat dances', img_url: 'https://cdn.example.com/cat.png' },
    parameters: { resolution: '480P', duration: 5, prompt_extend: true, audio: false },
  });
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.match(await poll(gateway, token, id), { status: 'succeeded', resolution: '480p' });
  t.strictSame(await spent(gateway, token, before), { used: wn25Units(5, 0.5), remainDrop: wn25Units(5, 0.5) }, '5 seconds at 480p');

  const form = new FormData();
  form.append('model', 'wn2.5-i2v-preview');
  form.append('duration', '10');
  form.append('generate_audio', 'true');
  form.append('image', new Blob([samplePng], { type: 'image/png' }), 'cat.png');
  const request = new Request('http://client.invalid/', { method: 'POST', body: form });
  const multipart = await gateway.app.inject({
    method: 'POST',
    url: '/v1/video/generations',
    headers: { ...token.bearer, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  t.equal(multipart.statusCode, 200, multipart.payload);
  t.strictSame(submits(fake)[1]!.json, {
    model: 'wan2.5-i2v-preview',
    input: { img_url: `data:image/png;base64,${samplePngBase64}` },
    parameters: { resolution: '720P', duration: 10, prompt_extend: false, audio: true },
  });
});

t.test('each wn2.7 model goes from submit to succeeded with its nested body passed on', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'wn2.7-t2v-2026-04-25',
      { prompt: 'a lighthouse in a storm', duration: 8, metadata: { input: { negative_prompt: 'blurry' }, parameters: { ratio: '9:16', watermark: true } } },
      { input: { prompt: 'a lighthouse in a storm', negative_prompt: 'blurry' }, parameters: { resolution: '720P', ratio: '9:16', duration: 8, watermark: true } },
    ],
    [
      'wn2.7-i2v-2026-04-25',
      { metadata: { input: { media: [{ type: 'first_frame', url: 'https://cdn.example.com/a.png' }, { type: 'driving_audio', url: 'https://cdn.example.com/v.wav' }] }, parameters: { resolution: '1080P' } } },
      { input: { media: [{ type: 'first_frame', url: 'https://cdn.example.com/a.png' }, { type: 'driving_audio', url: 'https://cdn.example.com/v.wav' }] }, parameters: { resolution: '1080P', duration: 5 } },
    ],
    [
      'wn2.7-r2v',
      { prompt: '图1 dances with 视频1', metadata: { input: { media: [{ type: 'reference_image', url: 'https://cdn.example.com/a.png', reference_voice: 'https://cdn.example.com/a.mp3' }, { type: 'reference_video', url: 'https://cdn.example.com/b.mp4' }] }, parameters: { duration: 10 } } },
      { input: { prompt: '图1 dances with 视频1', media: [{ type: 'reference_image', url: 'https://cdn.example.com/a.png', reference_voice: 'https://cdn.example.com/a.mp3' }, { type: 'reference_video', url: 'https://cdn.example.com/b.mp4' }] }, parameters: { resolution: '720P', duration: 10 } },
    ],
  ];
  for (const [model, body, upstream] of cases) {
    const before = await storedToken(gateway, token);
    const id = await accepted(t, gateway, token, { model, ...body });
    t.strictSame(submits(fake).at(-1)!.json, { model: modelMap[model as keyof typeof modelMap], ...upstream }, `${model}: the body sent`);
    t.match(await poll(gateway, token, id), { status: 'queued' });
    t.match(await poll(gateway, token, id), { status: 'in_progress' });
    t.match(await poll(gateway, token, id), { status: 'succeeded', url: new RegExp(`^${fake.url}/videos/`) }, model);
    const parameters = upstream.parameters as { duration: number; resolution: string };
    const units = wn27Units(parameters.duration, parameters.resolution === '1080P' ? 1.5 : 1);
    t.strictSame(await spent(gateway, token, before), { used: units, remainDrop: units }, `${model}: billed its seconds at its tier`);
  }
});

t.test('the download record is sr-2’s: a wn task answers that its channel has no download', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const id = await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x' });
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  const download = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: token.bearer });
  t.equal(download.statusCode, 404);
  t.match(download.json(), { error: { code: 'operation_unsupported' } });
});

t.test('every invalid field is a 400 naming its path; nothing is reserved and the upstream is not called', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const t2v25 = (fields: Record<string, unknown>) => ({ model: 'wn2.5-t2v-preview', prompt: 'x', ...fields });
  const i2v25 = (fields: Record<string, unknown>) => ({ model: 'wn2.5-i2v-preview', image: 'https://e.com/a.png', ...fields });
  const t2v27 = (input: Record<string, unknown>, parameters: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({ model: 'wn2.7-t2v-2026-04-25', ...top, metadata: { input: { prompt: 'x', ...input }, parameters } });
  const i2v27 = (media: unknown[], parameters: Record<string, unknown> = {}) => ({ model: 'wn2.7-i2v-2026-04-25', metadata: { input: { media }, parameters } });
  const r2v27 = (media: unknown[], parameters: Record<string, unknown> = {}) => ({ model: 'wn2.7-r2v', metadata: { input: { prompt: '图1', media }, parameters } });
  const first = { type: 'first_frame', url: 'https://e.com/a.png' };
  const image = { type: 'reference_image', url: 'https://e.com/a.png' };
  const video = { type: 'reference_video', url: 'https://e.com/a.mp4' };
  const cases: Array<[Record<string, unknown>, string]> = [
    [t2v25({ duration: 8 }), 'duration'],
    [t2v25({ resolution: '4k' }), 'resolution'],
    [t2v25({ size: '1280x720' }), 'size'],
    [i2v25({ size: '1280*720' }), 'size'],
    [t2v25({ size: '1920*1080', resolution: '720p' }), 'size'],
    [t2v25({ smart_rewrite: 'yes' }), 'smart_rewrite'],
    [t2v25({ generate_audio: 'no' }), 'generate_audio'],
    [t2v25({ audio_url: 'http://e.com/a.mp3' }), 'audio_url'],
    [t2v25({ seed: 2147483648 }), 'seed'],
    [t2v25({ image: 'https://e.com/a.png' }), 'image'],
    [i2v25({ image: undefined }), 'image'],
    [i2v25({ image: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }), 'image'],
    [t2v25({ prompt: undefined }), 'prompt'],
    [t2v25({ aspect_ratio: '16:9' }), 'aspect_ratio'],
    [{ model: 'wn2.7-t2v-2026-04-25', prompt: 'x' }, 'metadata'],
    [{ model: 'wn2.7-t2v-2026-04-25', metadata: { parameters: {} } }, 'metadata.input'],
    [t2v27({ prompt: undefined }), 'metadata.input.prompt'],
    [t2v27({ negative_prompt: 'n'.repeat(501) }), 'metadata.input.negative_prompt'],
    [t2v27({ audio_url: 'ftp://e.com/a.mp3' }), 'metadata.input.audio_url'],
    [t2v27({ media: [first] }), 'metadata.input.media'],
    [t2v27({}, { duration: 5 }, { duration: 6 }), 'duration'],
    [t2v27({}, { duration: 16 }), 'metadata.parameters.duration'],
    [t2v27({}, { resolution: '480P' }), 'metadata.parameters.resolution'],
    [t2v27({}, { ratio: '21:9' }), 'metadata.parameters.ratio'],
    [t2v27({}, { prompt_extend: 'false' }), 'metadata.parameters.prompt_extend'],
    [t2v27({}, { watermark: 'true' }), 'metadata.parameters.watermark'],
    [t2v27({}, { seed: -1 }), 'metadata.parameters.seed'],
    [t2v27({}, { fps: 24 }), 'metadata.parameters.fps'],
    [i2v27([first], { ratio: '16:9' }), 'metadata.parameters.ratio'],
    [i2v27([{ type: 'last_frame', url: 'https://e.com/b.png' }]), 'metadata.input.media'],
    [i2v27([first, { type: 'first_clip', url: 'https://e.com/c.mp4' }]), 'metadata.input.media'],
    [i2v27([first, first]), 'metadata.input.media'],
    [i2v27([{ type: 'first_frame', url: 'https://e.com/a.gif' }]), 'metadata.input.media[0].url'],
    [i2v27([{ type: 'reference_image', url: 'https://e.com/a.png' }]), 'metadata.input.media[0].type'],
    [r2v27([image, image, image, video, video, video]), 'metadata.input.media'],
    [r2v27([image, video], { duration: 12 }), 'metadata.parameters.duration'],
    [r2v27([first]), 'metadata.input.media'],
    [i2v27([{ ...first, reference_voice: 'https://e.com/v.wav' }]), 'metadata.input.media[0].reference_voice'],
  ];
  for (const [body, param] of cases) {
    const response = await submit(gateway, token, body);
    t.equal(response.statusCode, 400, `${param}: ${response.payload}`);
    t.match(response.json(), { error: { type: 'invalid_request_error', param, message: new RegExp(`^${param.replace(/[.[\]]/g, '\\$&')}: `) } }, param);
  }
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 }, 'nothing was reserved');
  t.equal(fake.requests.length, 0, 'the upstream was never called');
});

t.test('every upstream state maps onto a task state, and every failure is refunded with its code and message', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const body = { model: 'wn2.5-t2v-preview', prompt: 'x' };
  const ends: Array<[string, Parameters<FakeDashScopeUpstream['next']>[0], Record<string, unknown>]> = [
    ['FAILED', { taskEnd: 'FAILED' }, { code: 500, message: /internal error/, type: 'InternalError' }],
    ['FAILED by moderation', { taskEnd: 'FAILED', taskFailure: moderationFailure }, { code: 400, message: /moderation blocked the video: Output data may contain inappropriate content/, type: 'DataInspectionFailed' }],
    ['FAILED with InvalidParameter', { taskEnd: 'FAILED', taskFailure: { code: 'InvalidParameter', message: 'The size is not match xxxxxx' } }, { code: 400, message: 'The size is not match xxxxxx', type: 'InvalidParameter' }],
    ['CANCELED', { taskEnd: 'CANCELED' }, { code: 499, message: /canceled upstream/, type: 'Canceled' }],
    ['UNKNOWN (the upstream lost it)', { taskEnd: 'UNKNOWN' }, { code: 404, message: /no longer knows this task: DashScope answers UNKNOWN/, type: 'task_vanished' }],
  ];
  for (const [name, behaviour, error] of ends) {
    const before = await storedToken(gateway, token);
    fake.next(behaviour);
    const id = await accepted(t, gateway, token, body);
    t.match(await poll(gateway, token, id), { status: 'queued' }, `${name}: PENDING`);
    t.match(await poll(gateway, token, id), { status: 'in_progress' }, `${name}: RUNNING`);
    const ended = await poll(gateway, token, id);
    t.match(ended, { status: 'failed', error }, name);
    t.notOk('url' in ended, `${name}: no url`);
    t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 }, `${name}: refunded`);
  }
  fake.next({ taskSteps: ['SUSPENDED', 'SUCCEEDED'] });
  const suspended = await accepted(t, gateway, token, body);
  t.match(await poll(gateway, token, suspended), { status: 'queued' }, 'SUSPENDED waits as queued');
  t.match(await poll(gateway, token, suspended), { status: 'succeeded' });
});

t.test('an upstream 404 on a poll vanishes the task; a passing 500 leaves it as it was', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const flaky = await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x' });
  fake.next({ error: 500 });
  t.match(await poll(gateway, token, flaky), { status: 'queued' }, 'unchanged after a 500');
  t.match(await poll(gateway, token, flaky), { status: 'queued' }, 'PENDING, asked again');
  const lost = await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'y', duration: 10 });
  fake.next({ error: 404 });
  t.match(await poll(gateway, token, lost), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: wn25Units(5) }, 'only the open task still holds quota');
});

t.test('the upstream’s usage decides the charge when it reports a tier the model makes; otherwise the reserved estimate is charged', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const finish = async (id: string) => {
    for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  };
  let before = await storedToken(gateway, token);
  fake.next({ usage: { duration: 10.0, SR: '1080', video_count: 1 } });
  await finish(await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x' }));
  t.strictSame(await spent(gateway, token, before), { used: wn25Units(10, 2), remainDrop: wn25Units(10, 2) }, '10 s at 1080p instead of the 5 s at 720p held');
  before = await storedToken(gateway, token);
  fake.next({ usage: { duration: 5, SR: '540', video_count: 1 } });
  await finish(await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x', resolution: '480p' }));
  t.strictSame(await spent(gateway, token, before), { used: wn25Units(5, 0.5), remainDrop: wn25Units(5, 0.5) }, 'SR 540 is no tier: the estimate is charged');
});

t.test('an upstream refusal at submit is a 502 with its code and param, costs nothing, and is not tried elsewhere', async (t) => {
  const [first, second] = [await startDashScope(t), await startDashScope(t)];
  const { gateway, token } = await wnGateway(t, [first, second]);
  const before = await storedToken(gateway, token);
  first.next({ status: 400, body: { request_id: 'e5d70b02', code: 'InvalidParameter', message: 'The size is not match xxxxxx' } });
  const refused = await submit(gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x', size: '1280*720' });
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'InvalidParameter', param: 'size', message: /The size is not match/ } });
  first.next({ blocked: true });
  const blocked = await submit(gateway, token, { model: 'wn2.7-t2v-2026-04-25', metadata: { input: { prompt: 'x' } } });
  t.equal(blocked.statusCode, 502);
  t.match(blocked.json(), { error: { code: 'DataInspectionFailed', message: /Input data may contain inappropriate content/ } });
  t.equal(second.requests.length, 0, 'the second channel was not asked');
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 });
});

t.test('an upstream 5xx or 429 at submit fails over to the next channel, which then answers every poll', async (t) => {
  const [first, second] = [await startDashScope(t), await startDashScope(t)];
  const { gateway, token } = await wnGateway(t, [first, second]);
  first.next({ error: 500 });
  const id = await accepted(t, gateway, token, { model: 'wn2.7-t2v-2026-04-25', metadata: { input: { prompt: 'x' } } });
  t.strictSame(lastAttempts(gateway), ['wn-1:failed', 'wn-2:success']);
  t.equal(second.videoTasks.size, 1);
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.equal(polls(first).length, 0, 'polls go to the channel that accepted the task');
  t.equal(polls(second).length, 3);
  first.next({ error: 429 });
  await accepted(t, gateway, token, { model: 'wn2.5-t2v-preview', prompt: 'x' });
  t.equal(second.videoTasks.size, 2);
});

t.test('the /v1/videos pair shows a wn task as a video object with its seconds, and refuses a remix', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await wnGateway(t, [fake]);
  const created = await gateway.app.inject({ method: 'POST', url: '/v1/videos', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'wn2.5-t2v-preview', prompt: 'x', duration: 10 } });
  t.equal(created.statusCode, 200);
  const video = created.json();
  t.match(video, { object: 'video', status: 'queued', seconds: '10' });
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, video.id);
  const before = await storedToken(gateway, token);
  const remix = await gateway.app.inject({ method: 'POST', url: `/v1/videos/${video.id}/remix`, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { prompt: 'y' } });
  t.equal(remix.statusCode, 400, 'wn has no remix');
  t.match(remix.json(), { error: { param: 'remix_from_video_id', message: /unknown field/ } });
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 });
});
