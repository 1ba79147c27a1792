import t, { type Test } from 'tap';
import { arkVideoTokens, startFakeArkUpstream, type FakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { startCanaryServer } from '../helpers/start-canary-server.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// Seedance-style 1.x models cost 0.10 USD a second at 720p (50000 quota units a second);
// 480p costs half as much, 1080p one and a half times as much. sdx-2-0 costs 0.20 USD a
// second; sdx-2-0-fast is priced by Ark's completion tokens, 10 USD per million.
const pricing = {
  ...scenarioPricing,
  'dsx-*': { per_second: 0.1, resolution_multipliers: { '480p': 0.5, '720p': 1, '1080p': 1.5 } },
  'sdx-2-0': { per_second: 0.2, resolution_multipliers: { '1080p': 1.5 } },
  'sdx-2-0-fast': { output_per_mtok: 10 },
};
const unitsPerSecond = 50_000;
const upstreamKey = 'ark-video-key';

const upstreamModels: Record<string, string> = {
  'dsx-1-0-lite-t2v-250428': 'doubao-seedance-1-0-lite-t2v-250428',
  'dsx-1-0-lite-i2v-250428': 'doubao-seedance-1-0-lite-i2v-250428',
  'dsx-1-0-pro-250528': 'doubao-seedance-1-0-pro-250528',
  'dsx-1-5-pro-251215': 'seedance-1-5-pro-251215',
  'dsx-1-5-pro-251215-noAudio': 'seedance-1-5-pro-251215',
  'sdx-2-0': 'dreamina-seedance-2-0-260128',
  'sdx-2-0-fast': 'dreamina-seedance-2-0-fast-260128',
};

function dsxChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'dsx', base_url: baseUrl, api_key: upstreamKey, models: ['dsx-*', 'sdx-*'], model_map: upstreamModels, groups: ['default'], ...fields };
}

// The fake gives its video addresses under `localhost`, the one name the media guard is told
// to allow; every other loopback address (a canary's 127.0.0.1) stays refused.
const fakeAddressHost = 'localhost';
const security = { encryption_key: testEncryptionKey, media: { allow_hosts: [fakeAddressHost] } };

async function startArk(t: Test): Promise<FakeArkUpstream> {
  const fake = await startFakeArkUpstream({ apiKey: upstreamKey, addressHost: fakeAddressHost });
  t.teardown(() => fake.close());
  return fake;
}

async function dsxGateway(t: Test, channels?: (fake: FakeArkUpstream) => Array<Record<string, unknown>>) {
  const fake = await startArk(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: channels?.(fake) ?? [dsxChannel('ark-video', fake.url)],
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    security,
  });
  return { fake, gateway, token: await issueToken(t, gateway) };
}

const submit = (gateway: TestApp, token: IssuedToken, body: Record<string, unknown>) =>
  gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: body });
const poll = async (gateway: TestApp, token: IssuedToken, id: string) =>
  (await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer })).json() as Record<string, any>;

/** Polls until the task is terminal; returns every status seen. */
async function pollToEnd(gateway: TestApp, token: IssuedToken, id: string): Promise<{ statuses: string[]; last: Record<string, any> }> {
  const statuses: string[] = [];
  let last: Record<string, any> = {};
  for (let step = 0; step < 6; step += 1) {
    last = await poll(gateway, token, id);
    statuses.push(last.status);
    if (['succeeded', 'completed', 'failed'].includes(last.status)) break;
  }
  return { statuses, last };
}

const creates = (fake: FakeArkUpstream) => fake.requests.filter((request) => request.method === 'POST');
const text = (value: string) => ({ type: 'text', text: value });
const image = (url: string, role?: string) => ({ type: 'image_url', image_url: { url }, ...(role === undefined ? {} : { role }) });

t.test('every model goes from submit through its states to a finished video with a url', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ model: 'dsx-1-0-lite-t2v-250428', metadata: { content: [text('a fox in snow --rs 480p --ratio 1:1 --cf true')] } }, 'succeeded'],
    [{ model: 'dsx-1-0-lite-i2v-250428', metadata: { content: [text('it wakes up'), image('https://img.example/fox.png', 'reference_image')] } }, 'succeeded'],
    [{ model: 'dsx-1-0-pro-250528', prompt: 'a fox --rs 1080p --dur 10' }, 'succeeded'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('--frames 121'), image('https://img.example/a.png', 'first_frame'), image('https://img.example/b.png', 'last_frame')], return_last_frame: true } }, 'succeeded'],
    [{ model: 'dsx-1-5-pro-251215-noAudio', prompt: 'a quiet fox' }, 'succeeded'],
    [{ model: 'sdx-2-0', prompt: 'a fox', resolution: '1080p', aspect_ratio: 'adaptive' }, 'completed'],
    [{ model: 'sdx-2-0-fast', prompt: '@Video1 in snow', metadata: { content: [{ type: 'video_url', video_url: { url: 'https://media.example/clip.mp4' } }] } }, 'completed'],
  ];
  for (const [body, finished] of cases) {
    const submitted = await submit(gateway, token, body);
    t.equal(submitted.statusCode, 200, `${body.model} is accepted`);
    t.match(submitted.json(), { task_id: /^video_[0-9A-Za-z]{24}$/, status: 'submitted', format: 'mp4', model: body.model });
    const sent = creates(fake).at(-1)!.json as Record<string, any>;
    t.equal(sent.model, upstreamModels[body.model as string], 'the channel’s model_map names the upstream model');
    const { statuses, last } = await pollToEnd(gateway, token, submitted.json().task_id);
    t.strictSame(statuses, ['queued', 'in_progress', finished], `${body.model}: queued → in_progress → ${finished}`);
    t.match(last, { format: 'mp4', progress: 100, url: new RegExp(`^${fake.addressOrigin}/ark-content-generation-video/cgt-`) });
    const metadata = body.metadata as { return_last_frame?: boolean } | undefined;
    if (metadata?.return_last_frame === true) t.match(last, { last_frame_url: /^http/ }, 'the last frame asked for is shown on the task');
    else t.notOk('last_frame_url' in last, `${body.model}: no last frame was asked for`);
  }
  const silent = creates(fake).find((request) => (request.json as any).content[0].text === 'a quiet fox')!.json as Record<string, any>;
  t.equal(silent.generate_audio, false, 'the noAudio id asks for a silent video');
});

t.test('the submission goes upstream as Ark’s task body', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  await submit(gateway, token, { model: 'dsx-1-5-pro-251215', metadata: { content: [text('a cat --rs 480p --dur 6'), image('https://img.example/a.png')], return_last_frame: true, callback_url: 'https://hooks.example/done' } });
  const request = creates(fake)[0]!;
  t.equal(request.path, '/api/v3/contents/generations/tasks');
  t.equal(request.headers.authorization, `Bearer ${upstreamKey}`);
  t.strictSame(request.json, {
    model: 'seedance-1-5-pro-251215',
    content: [text('a cat --rs 480p --dur 6'), image('https://img.example/a.png')],
    generate_audio: true,
    return_last_frame: true,
    callback_url: 'https://hooks.example/done',
  });
  await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a fox', image: 'https://img.example/fox.png', duration: 8, metadata: { seed: 3 } });
  t.strictSame(creates(fake)[1]!.json, {
    model: 'dreamina-seedance-2-0-260128',
    content: [text('a fox'), image('https://img.example/fox.png', 'first_frame')],
    resolution: '720p',
    duration: 8,
    seed: 3,
  });
});

t.test('each invalid field is a 400 naming its path; nothing is reserved and the upstream is not called', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const before = await storedToken(gateway, token);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --rs 1080p')] } }, 'metadata.content[0].text --rs'],
    [{ model: 'dsx-1-0-pro-250528', metadata: { content: [text('a --rs 480p')] } }, 'metadata.content[0].text --rs'],
    [{ model: 'dsx-1-0-lite-t2v-250428', metadata: { content: [text('a --ratio adaptive')] } }, 'metadata.content[0].text --ratio'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --dur 13')] } }, 'metadata.content[0].text --dur'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --frames 30')] } }, 'metadata.content[0].text --frames'],
    [{ model: 'dsx-1-0-pro-250528', metadata: { content: [text('a --frames 121')] } }, 'metadata.content[0].text --frames'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --fps 30')] } }, 'metadata.content[0].text --fps'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --seed 4294967296')] } }, 'metadata.content[0].text --seed'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --wm maybe')] } }, 'metadata.content[0].text --wm'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [text('a --cf true')] } }, 'metadata.content[0].text --cf'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [image('https://img.example/a.png', 'reference_image')] } }, 'metadata.content[0].role'],
    [{ model: 'dsx-1-0-lite-t2v-250428', metadata: { content: [text('a'), image('https://img.example/a.png')] } }, 'metadata.content[1].image_url.url'],
    [{ model: 'dsx-1-0-lite-i2v-250428', metadata: { content: [text('a')] } }, 'metadata.content'],
    [{ model: 'dsx-1-5-pro-251215', metadata: { content: [image('ftp://img.example/a.png')] } }, 'metadata.content[0].image_url.url'],
    [{ model: 'dsx-1-5-pro-251215', prompt: 'a', metadata: { callback_url: 'http://hooks.example/x' } }, 'metadata.callback_url'],
    [{ model: 'dsx-1-0-pro-250528', prompt: 'a', metadata: { return_last_frame: true } }, 'metadata.return_last_frame'],
    [{ model: 'dsx-1-5-pro-251215', prompt: 'a', resolution: '720p' }, 'resolution'],
    [{ model: 'sdx-2-0-fast', prompt: 'a', resolution: '1080p' }, 'resolution'],
    [{ model: 'sdx-2-0', prompt: 'a', duration: 20 }, 'duration'],
    [{ model: 'sdx-2-0', prompt: 'a', aspect_ratio: '5:4' }, 'aspect_ratio'],
    [{ model: 'sdx-2-0', prompt: 'a', metadata: { content: [{ type: 'audio_url', audio_url: { url: 'data:audio/mp3;base64,AAAA' } }] } }, 'metadata.content[0].audio_url.url'],
    [{ model: 'sdx-2-0', prompt: 'a', metadata: { content: [{ type: 'file_url', file_url: { url: 'asset://asset-1' } }] } }, 'metadata.content[0]'],
    [{ model: 'sdx-2-0', prompt: 'a --dur 5' }, 'prompt --dur'],
    [{ model: 'sdx-2-0' }, 'prompt'],
  ];
  for (const [body, param] of cases) {
    const response = await submit(gateway, token, body);
    t.equal(response.statusCode, 400, `${body.model} ${param}`);
    t.match(response.json(), { error: { type: 'invalid_request_error', code: 'invalid_request', param } }, param);
  }
  const unknownAsset = await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a', image: 'asset://asset-20260924140015-hczmn' });
  t.equal(unknownAsset.statusCode, 404, 'an asset:// reference must name an asset of the caller');
  t.match(unknownAsset.json(), { error: { code: 'asset_not_found', param: 'image' } });
  t.equal(fake.requests.length, 0, 'the upstream was never called');
  t.strictSame(await storedToken(gateway, token), before, 'nothing was reserved');
});

t.test('billing: per_second × the resolution multiplier, reserved at submit and charged once on success', async (t) => {
  const { gateway, token } = await dsxGateway(t);
  const cases: Array<[Record<string, unknown>, number]> = [
    [{ model: 'dsx-1-0-pro-250528', prompt: 'a --rs 1080p --dur 10' }, 10 * unitsPerSecond * 1.5],
    [{ model: 'dsx-1-5-pro-251215', prompt: 'a --rs 480p --dur 4' }, 4 * unitsPerSecond * 0.5],
    [{ model: 'dsx-1-5-pro-251215', prompt: 'a --frames 121' }, Math.ceil((121 / 24) * unitsPerSecond)],
    [{ model: 'dsx-1-0-lite-t2v-250428', prompt: 'a' }, 5 * unitsPerSecond],
    [{ model: 'sdx-2-0', prompt: 'a', resolution: '1080p', duration: 6 }, 6 * 2 * unitsPerSecond * 1.5],
  ];
  for (const [body, units] of cases) {
    const before = await storedToken(gateway, token);
    const id = (await submit(gateway, token, body)).json().task_id as string;
    const held = await storedToken(gateway, token);
    t.equal(before.remain_quota - held.remain_quota, units, `${body.prompt}: reserved at submit`);
    t.equal(held.used_quota, before.used_quota, 'nothing charged yet');
    await pollToEnd(gateway, token, id);
    const after = await storedToken(gateway, token);
    t.equal(after.used_quota - before.used_quota, units, `${body.prompt}: charged on success`);
    t.equal(after.remain_quota, held.remain_quota, 'the hold became the charge');
    await poll(gateway, token, id);
    t.strictSame(await storedToken(gateway, token), after, 'polling a finished task charges nothing more');
  }
});

t.test('billing: a token-priced model is charged the completion tokens Ark reports', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const estimatedUnits = Math.ceil(arkVideoTokens('720p', 5, undefined) * 10 * 0.5);
  const before = await storedToken(gateway, token);
  const first = (await submit(gateway, token, { model: 'sdx-2-0-fast', prompt: 'a' })).json().task_id as string;
  t.equal(before.remain_quota - (await storedToken(gateway, token)).remain_quota, estimatedUnits, 'the estimate of 108900 tokens is held');
  await pollToEnd(gateway, token, first);
  const middle = await storedToken(gateway, token);
  t.equal(middle.used_quota - before.used_quota, estimatedUnits, 'Ark reported as many tokens as estimated');

  fake.next({ taskTokens: 20_000 });
  const second = (await submit(gateway, token, { model: 'sdx-2-0-fast', prompt: 'b' })).json().task_id as string;
  await pollToEnd(gateway, token, second);
  const after = await storedToken(gateway, token);
  t.equal(after.used_quota - middle.used_quota, 20_000 * 5, 'charged 20000 reported tokens at 10 USD per million, not the estimate');
  t.equal(after.remain_quota + after.used_quota, before.remain_quota + before.used_quota, 'the unused part of the hold came back');
});

t.test('failed, moderated, cancelled and expired tasks fail with the upstream’s error and are refunded', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const before = await storedToken(gateway, token);
  const cases: Array<[Parameters<FakeArkUpstream['next']>[0], string[], Record<string, unknown>]> = [
    [{ taskOutcome: 'failed' }, ['queued', 'in_progress', 'failed'], { code: 500, type: 'InternalServiceError', message: /unexpected internal error/ }],
    [{ taskOutcome: 'moderation' }, ['queued', 'in_progress', 'failed'], { code: 400, type: 'OutputVideoSensitiveContentDetected', message: /sensitive information/ }],
    [{ taskOutcome: 'cancelled' }, ['queued', 'failed'], { code: 409, type: 'cancelled' }],
    [{ taskOutcome: 'expired' }, ['queued', 'failed'], { code: 504, type: 'expired' }],
  ];
  for (const [behaviour, expectedStates, error] of cases) {
    fake.next(behaviour);
    const id = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a' })).json().task_id as string;
    const { statuses, last } = await pollToEnd(gateway, token, id);
    t.strictSame(statuses, expectedStates, String(behaviour.taskOutcome));
    t.match(last, { status: 'failed', error });
    t.notOk('url' in last, 'no video');
  }
  t.strictSame(await storedToken(gateway, token), before, 'every hold came back');
});

t.test('the moderation record tells a blocked task from a passed one', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  fake.next({ taskOutcome: 'moderation' });
  const blocked = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a' })).json().task_id as string;
  const passed = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'b' })).json().task_id as string;
  const moderation = (id: string) => gateway.app.inject({ method: 'GET', url: `/v1/video/generations/moderation-result/${id}`, headers: token.bearer });
  t.match((await moderation(blocked)).json(), { result: 'pending', flagged: false });
  await pollToEnd(gateway, token, blocked);
  await pollToEnd(gateway, token, passed);
  const record = await moderation(blocked);
  t.equal(record.statusCode, 200);
  t.strictSame(record.json(), {
    result: 'blocked',
    flagged: true,
    task_status: 'failed',
    target: 'output_video',
    code: 'OutputVideoSensitiveContentDetected',
    message: record.json().message,
  });
  t.match(record.json().message, /sensitive information/);
  t.match((await moderation(passed)).json(), { result: 'passed', flagged: false, task_status: 'succeeded' });
  const other = await issueToken(t, gateway);
  t.equal((await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/moderation-result/${blocked}`, headers: other.bearer })).statusCode, 404, "another token's task");
});

t.test('a task the upstream lost fails as vanished and is refunded', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const before = await storedToken(gateway, token);
  fake.next({ taskOutcome: 'vanish' });
  const lost = (await submit(gateway, token, { model: 'dsx-1-5-pro-251215', prompt: 'a' })).json().task_id as string;
  t.match(await poll(gateway, token, lost), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  const forgotten = (await submit(gateway, token, { model: 'dsx-1-5-pro-251215', prompt: 'b' })).json().task_id as string;
  t.match(await poll(gateway, token, forgotten), { status: 'queued' });
  fake.forgetTask([...fake.tasks.keys()].at(-1)!);
  t.match(await poll(gateway, token, forgotten), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  t.strictSame(await storedToken(gateway, token), before);
});

t.test('a passing upstream failure while polling leaves the task as it was', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const id = (await submit(gateway, token, { model: 'dsx-1-5-pro-251215', prompt: 'a' })).json().task_id as string;
  fake.next({ error: 500 });
  t.match(await poll(gateway, token, id), { status: 'queued' });
  t.match(await poll(gateway, token, id), { status: 'queued' }, 'the upstream’s first real answer');
  t.match(await poll(gateway, token, id), { status: 'in_progress' });
});

t.test('the download record carries the mp4 the upstream made', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const id = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a' })).json().task_id as string;
  await pollToEnd(gateway, token, id);
  const upstreamId = [...fake.tasks.keys()][0]!;
  const download = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: token.bearer });
  t.equal(download.statusCode, 200);
  const record = download.json();
  const bytes = Buffer.from(record.base64, 'base64');
  t.match(record, { success: true, generation_id: upstreamId, task_id: id, format: 'mp4', size: bytes.length });
  t.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');
  t.ok(bytes.includes(Buffer.from(upstreamId)), 'the bytes of this task');
  t.equal(record.data_url, `data:video/mp4;base64,${record.base64}`);
});

t.test('the content route streams the mp4 from the address the upstream gave, through the media guard', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const id = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a' })).json().task_id as string;
  await pollToEnd(gateway, token, id);
  const content = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}/content`, headers: token.bearer });
  t.equal(content.statusCode, 200);
  t.equal(content.headers['content-type'], 'video/mp4');
  t.ok(content.rawPayload.includes(Buffer.from([...fake.tasks.keys()][0]!)), 'the bytes of this task');
  const download = fake.requests.at(-1)!;
  t.match(download, { method: 'GET', path: /^\/ark-content-generation-video\/cgt-/ });
  t.equal(download.headers.authorization, undefined, 'the storage host never sees the channel key');
  t.equal(download.headers.host, `${fakeAddressHost}:${new URL(fake.url).port}`, 'fetched under the one name security.media allows');
});

t.test('a video_url the upstream points at loopback or cloud metadata is refused: no fetch, a 502, nothing charged', async (t) => {
  const canary = await startCanaryServer(t);
  const { fake, gateway, token } = await dsxGateway(t);
  const cases: Array<[string, RegExp]> = [
    [`${canary.url}/admin/secret.mp4`, /127\.0\.0\.1, a loopback address/],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', /169\.254\.169\.254, a link-local address, where cloud metadata services answer/],
    [`http://[::ffff:127.0.0.1]:${new URL(canary.url).port}/v.mp4`, /127\.0\.0\.1, a loopback address/],
  ];
  for (const [videoUrl, why] of cases) {
    fake.next({ taskVideoUrl: videoUrl });
    const id = (await submit(gateway, token, { model: 'sdx-2-0', prompt: 'a' })).json().task_id as string;
    const { last } = await pollToEnd(gateway, token, id);
    t.equal(last.status, 'completed', videoUrl);
    const charged = await storedToken(gateway, token);
    const downloadsBefore = fake.requests.length;
    for (const url of [`/v1/video/generations/${id}/content`, `/v1/videos/${id}/content`, `/v1/video/generations/download?id=${id}`]) {
      const refused = await gateway.app.inject({ method: 'GET', url, headers: token.bearer });
      t.equal(refused.statusCode, 502, `${url} → 502`);
      t.match(refused.json(), { error: { code: 'upstream_url_refused', message: why } }, url);
      t.match(refused.json().error.message, /security\.media\.allow_hosts/);
      t.notMatch(refused.body, 'canary secret');
    }
    t.equal(fake.requests.length - downloadsBefore, 3, 'each refusal asked the upstream about the task only');
    t.strictSame(await storedToken(gateway, token), charged, 'a refused download charges and refunds nothing');
  }
  t.strictSame(canary.hits, [], 'the canary was never asked');
  t.equal(canary.connections, 0, 'nor connected to');
});

t.test('an upstream refusal at submit is a 502 with its code and param, and costs nothing', async (t) => {
  const { fake, gateway, token } = await dsxGateway(t);
  const before = await storedToken(gateway, token);
  fake.next({ error: 400, code: 'InvalidParameter', param: 'content[1].image_url.url', message: 'The parameter `content[1].image_url.url` specified in the request is not valid: the image cannot be downloaded.' });
  const refused = await submit(gateway, token, { model: 'dsx-1-0-lite-i2v-250428', metadata: { content: [text('a'), image('https://img.example/gone.png')] } });
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'InvalidParameter', param: 'content[1].image_url.url', message: /cannot be downloaded/ } });
  fake.next({ blocked: 'input_text' });
  const blocked = await submit(gateway, token, { model: 'dsx-1-5-pro-251215', prompt: 'a' });
  t.equal(blocked.statusCode, 502);
  t.match(blocked.json(), { error: { code: 'InputTextSensitiveContentDetected' } });
  t.strictSame(await storedToken(gateway, token), before);
  t.equal(creates(fake).length, 2, 'each refusal was one call: not retried');
});

t.test('an upstream 5xx or 429 at submit fails over to the next channel', async (t) => {
  const second = await startArk(t);
  const { fake, gateway, token } = await dsxGateway(t, (first) => [dsxChannel('ark-first', first.url, { priority: 10 }), dsxChannel('ark-second', second.url, { priority: 0 })]);
  for (const behaviour of [{ error: 500 }, { error: 429 }]) {
    fake.next(behaviour);
    const submitted = await submit(gateway, token, { model: 'dsx-1-5-pro-251215', prompt: 'a' });
    t.equal(submitted.statusCode, 200, `after HTTP ${behaviour.error}`);
    t.strictSame(lastAttempts(gateway), ['ark-first:failed', 'ark-second:success']);
    const { statuses } = await pollToEnd(gateway, token, submitted.json().task_id);
    t.equal(statuses.at(-1), 'succeeded', 'the task is asked about on the channel that accepted it');
  }
  t.equal(second.tasks.size, 2);
  t.equal(fake.tasks.size, 0);
});
