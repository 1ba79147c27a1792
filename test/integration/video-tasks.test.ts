import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken, scenarioGateway, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';

// A video provider whose upstream is a script in the prompt (see the fixture's header).
const scriptedVideoPlugin = fileURLToPath(new URL('../fixtures/plugins/scripted-video-provider.ts', import.meta.url));

// 0.10 USD a second = 50000 quota units a second; 1080p costs 1.5 times as much.
const pricing = { 'vx-test': { per_second: 0.1, resolution_multipliers: { '1080p': 1.5 } } };
const unitsForSeconds = (seconds: number, multiplier = 1) => seconds * 50_000 * multiplier;

class ManualClock {
  #offset = 0;
  now = () => Date.now() + this.#offset;
  advance(milliseconds: number): void {
    this.#offset += milliseconds;
  }
}

async function videoGateway(t: Test, tasks: Record<string, unknown> = {}, clock = new ManualClock(), server: Record<string, unknown> = {}) {
  const gateway = await scenarioGateway(
    t,
    {
      server,
      pricing,
      providers: [{ name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] }],
      tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000, ...tasks },
    },
    { clock },
  );
  return { gateway, clock, token: await issueToken(t, gateway) };
}

const submit = (gateway: TestApp, token: IssuedToken, body: Record<string, unknown>) =>
  gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'vx-test', ...body } });
const poll = (gateway: TestApp, token: IssuedToken, id: string) => gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer });

t.test('a task goes from submitted through its states to succeeded, and is charged once, on success', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const before = await storedToken(gateway, token);
  const submitted = await submit(gateway, token, { prompt: 'a fox in snow, seconds: 8, script: queued in_progress succeeded' });
  t.equal(submitted.statusCode, 200);
  const { task_id: id, ...rest } = submitted.json();
  t.match(id, /^video_[0-9A-Za-z]{24}$/);
  t.match(rest, { status: 'submitted', format: 'mp4' });

  const reserved = await storedToken(gateway, token);
  t.equal(before.remain_quota - reserved.remain_quota, unitsForSeconds(8), 'the cost is reserved at submit');
  t.equal(reserved.used_quota, before.used_quota, 'nothing is charged yet');

  t.match((await poll(gateway, token, id)).json(), { task_id: id, status: 'queued', format: 'mp4' });
  t.match((await poll(gateway, token, id)).json(), { status: 'in_progress', progress: 50 });
  const done = (await poll(gateway, token, id)).json();
  t.match(done, { status: 'succeeded', url: /^https:\/\/videos\.example\//, progress: 100, seconds: 8 });

  const settled = await storedToken(gateway, token);
  t.equal(settled.used_quota - before.used_quota, unitsForSeconds(8), 'charged on success');
  t.equal(settled.remain_quota, reserved.remain_quota, 'the hold became the charge');
  await poll(gateway, token, id);
  await poll(gateway, token, id);
  t.strictSame(await storedToken(gateway, token), settled, 'polling a finished task charges nothing more');
});

t.test('a failed task shows its error and is refunded', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const before = await storedToken(gateway, token);
  const id = (await submit(gateway, token, { prompt: 'x, script: in_progress failed' })).json().task_id as string;
  await poll(gateway, token, id);
  const failed = (await poll(gateway, token, id)).json();
  t.match(failed, { status: 'failed', error: { code: 400, message: /moderation/, type: 'OutputVideoSensitiveContentDetected' } });
  t.strictSame(await storedToken(gateway, token), before, 'the whole hold came back');
});

t.test('a task the upstream lost fails and is refunded; a passing upstream failure does not', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const before = await storedToken(gateway, token);
  const flaky = (await submit(gateway, token, { prompt: 'x, script: unreachable succeeded' })).json().task_id as string;
  t.match((await poll(gateway, token, flaky)).json(), { status: 'queued' }, 'an unreachable upstream leaves the task as it was');
  t.match((await poll(gateway, token, flaky)).json(), { status: 'succeeded' });
  const lost = (await submit(gateway, token, { prompt: 'x, script: vanished' })).json().task_id as string;
  t.match((await poll(gateway, token, lost)).json(), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  const after = await storedToken(gateway, token);
  t.equal(after.used_quota - before.used_quota, unitsForSeconds(4), 'only the task that succeeded is charged');
  t.equal(before.remain_quota - after.remain_quota, unitsForSeconds(4));
});

t.test('the resolution multiplier applies to per_second prices', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const before = await storedToken(gateway, token);
  await submit(gateway, token, { prompt: 'x, seconds: 6, script: queued', resolution: '1080p' });
  t.equal(before.remain_quota - (await storedToken(gateway, token)).remain_quota, unitsForSeconds(6, 1.5));
});

t.test("another token's task, and an unknown id, answer 404", async (t) => {
  const { gateway, token } = await videoGateway(t);
  const other = await issueToken(t, gateway);
  const id = (await submit(gateway, token, { prompt: 'x' })).json().task_id as string;
  for (const response of [await poll(gateway, other, id), await poll(gateway, token, 'video_doesnotexist')]) {
    t.equal(response.statusCode, 404);
    t.match(response.json(), { error: { code: 'task_not_found', message: /no video task/ } });
  }
});

t.test('the upstream is asked at most once per minimum poll interval', async (t) => {
  const { gateway, token } = await videoGateway(t, { min_poll_interval_ms: 60_000 });
  const id = (await submit(gateway, token, { prompt: 'x, script: in_progress succeeded' })).json().task_id as string;
  for (let index = 0; index < 5; index += 1) t.match((await poll(gateway, token, id)).json(), { status: 'queued' }, 'the cached answer');
});

t.test('the background poller settles tasks nobody polls', async (t) => {
  const { gateway, token } = await videoGateway(t, { background_poll_ms: 100 });
  const before = await storedToken(gateway, token);
  await submit(gateway, token, { prompt: 'x, seconds: 5, script: in_progress succeeded' });
  const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota, 5000);
  t.equal(after.used_quota - before.used_quota, unitsForSeconds(5));
});

t.test('a task that never finishes expires: its hold is refunded and it answers as failed, expired', async (t) => {
  const { gateway, token, clock } = await videoGateway(t, { background_poll_ms: 100 });
  const before = await storedToken(gateway, token);
  const id = (await submit(gateway, token, { prompt: 'x, script: in_progress' })).json().task_id as string;
  t.match((await poll(gateway, token, id)).json(), { status: 'in_progress' });
  clock.advance(24 * 3_600_000 + 1000);
  const after = await waitForToken(gateway, token, (stored) => stored.remain_quota === before.remain_quota, 5000);
  t.strictSame(after, before, 'refunded by the poller');
  t.match((await poll(gateway, token, id)).json(), { status: 'failed', error: { code: 504, type: 'expired' } });
});

t.test('a task that finished while the upstream could not be asked is charged at expiry, not refunded: the upstream is asked once more', async (t) => {
  const { gateway, token, clock } = await videoGateway(t, { background_poll_ms: 100 });
  const before = await storedToken(gateway, token);
  const id = (await submit(gateway, token, { prompt: 'x, seconds: 6, script: unreachable_for_a_day succeeded' })).json().task_id as string;
  await new Promise((resolve) => setTimeout(resolve, 350));
  t.equal((await storedToken(gateway, token)).used_quota, before.used_quota, 'nothing is settled while the upstream cannot be asked');
  clock.advance(24 * 3_600_000 + 1000);
  const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota, 5000);
  t.equal(after.used_quota - before.used_quota, unitsForSeconds(6), 'the video the upstream made is charged');
  t.equal(before.remain_quota - after.remain_quota, unitsForSeconds(6), 'its hold became the charge');
  t.match((await poll(gateway, token, id)).json(), { status: 'succeeded', url: /^https:\/\/videos\.example\// }, 'and the client can still fetch what it paid for');
});

t.test('the download record of a finished task carries the video as base64 and a data URL', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const id = (await submit(gateway, token, { prompt: 'x, script: queued succeeded' })).json().task_id as string;
  const early = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: token.bearer });
  t.equal(early.statusCode, 400, 'not before it succeeded');
  t.match(early.json(), { error: { message: /is queued/ } });
  await poll(gateway, token, id);
  const download = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: token.bearer });
  t.equal(download.statusCode, 200);
  const bytes = Buffer.from('mp4 bytes of upstream-task-1');
  t.strictSame(download.json(), {
    success: true,
    generation_id: 'upstream-task-1',
    task_id: id,
    format: 'mp4',
    size: bytes.length,
    base64: bytes.toString('base64'),
    data_url: `data:video/mp4;base64,${bytes.toString('base64')}`,
  });
  const missing = await gateway.app.inject({ method: 'GET', url: '/v1/video/generations/download', headers: token.bearer });
  t.equal(missing.statusCode, 400);
});

t.test('a finished task without a public url points at the gateway content route, which serves the video bytes', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const id = (await submit(gateway, token, { prompt: 'x, no url, script: succeeded' })).json().task_id as string;
  const task = (await poll(gateway, token, id)).json();
  t.equal(task.url, `http://localhost:80/v1/video/generations/${id}/content`);
  for (const url of [`/v1/video/generations/${id}/content`, `/v1/videos/${id}/content`]) {
    const content = await gateway.app.inject({ method: 'GET', url, headers: token.bearer });
    t.equal(content.statusCode, 200, url);
    t.equal(content.headers['content-type'], 'video/mp4');
    t.equal(content.payload, 'mp4 bytes of upstream-task-1');
  }
  const other = await issueToken(t, gateway);
  t.equal((await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}/content`, headers: other.bearer })).statusCode, 404);
});

t.test('a content url is never built on a forged Host header: an allowed host gives an absolute link, any other host a relative one', async (t) => {
  const { gateway, token } = await videoGateway(t, {}, undefined, { host: 'gateway.internal', port: 8080, allowed_hosts: ['videos.corp.example', 'api.corp.example:8443'] });
  const id = (await submit(gateway, token, { prompt: 'x, no url, script: succeeded' })).json().task_id as string;
  const path = `/v1/video/generations/${id}/content`;
  const urlFor = async (headers: Record<string, string>) => {
    const generation = (await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: { ...token.bearer, ...headers } })).json();
    const video = (await gateway.app.inject({ method: 'GET', url: `/v1/videos/${id}`, headers: { ...token.bearer, ...headers } })).json();
    t.equal(video.url, generation.url, 'both task views give the same link');
    return generation.url as string;
  };
  t.equal(await urlFor({ host: 'evil.example' }), path, 'a forged host gives a relative link');
  t.equal(await urlFor({ host: 'evil.example:8443' }), path);
  t.equal(await urlFor({ host: 'api.corp.example:9999' }), path, 'an allowed name on another port than listed is refused');
  t.equal(await urlFor({ host: 'localhost', 'x-forwarded-host': 'evil.example' }), `http://localhost${path}`, 'X-Forwarded-Host is ignored without trust_proxy');
  t.equal(await urlFor({ host: '127.0.0.1:3000' }), `http://127.0.0.1:3000${path}`, 'a loopback name is allowed on any port');
  t.equal(await urlFor({ host: 'gateway.internal:8080' }), `http://gateway.internal:8080${path}`, 'the listen host:port is allowed');
  t.equal(await urlFor({ host: 'GATEWAY.internal.:8080' }), `http://GATEWAY.internal.:8080${path}`, 'compared without case or trailing dot');
  t.equal(await urlFor({ host: 'gateway.internal:9090' }), path);
  t.equal(await urlFor({ host: 'videos.corp.example' }), `http://videos.corp.example${path}`, 'an allowed_hosts name is allowed on any port');
  t.equal(await urlFor({ host: 'api.corp.example:8443' }), `http://api.corp.example:8443${path}`, 'an allowed host:port on that port');
});

t.test('with server.public_url, the content url is built on it whatever the Host header says', async (t) => {
  const { gateway, token } = await videoGateway(t, {}, undefined, { public_url: 'https://api.example.com/gateway/' });
  const id = (await submit(gateway, token, { prompt: 'x, no url, script: succeeded' })).json().task_id as string;
  for (const host of ['evil.example', 'localhost:80']) {
    const task = (await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: { ...token.bearer, host } })).json();
    t.equal(task.url, `https://api.example.com/gateway/v1/video/generations/${id}/content`, host);
  }
});

t.test('a submission the family refuses, or the upstream rejects, costs nothing', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const before = await storedToken(gateway, token);
  const refused = await submit(gateway, token, {});
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), { error: { type: 'invalid_request_error', param: 'prompt' } });
  const rejected = await submit(gateway, token, { prompt: 'reject at submit' });
  t.equal(rejected.statusCode, 502);
  t.match(rejected.json(), { error: { code: 'InvalidParameter', param: 'prompt' } });
  t.strictSame(await storedToken(gateway, token), before);
});

t.test('a token that cannot pay for the video gets 402 before the upstream is asked', async (t) => {
  const { gateway } = await videoGateway(t);
  const poor = await issueToken(t, gateway, { remain_quota: 1000 });
  const response = await submit(gateway, poor, { prompt: 'x, seconds: 8' });
  t.equal(response.statusCode, 402);
});

t.test("a remix names the caller's finished task, and the provider gets that task's upstream handle", async (t) => {
  const { gateway, token } = await videoGateway(t);
  const source = (await submit(gateway, token, { prompt: 'x, script: queued succeeded' })).json().task_id as string;
  const early = await submit(gateway, token, { prompt: 'remix it', remix_from_video_id: source });
  t.equal(early.statusCode, 400, 'not before the source succeeded');
  t.match(early.json(), { error: { param: 'remix_from_video_id', message: /is queued/ } });
  await poll(gateway, token, source);
  const remix = await submit(gateway, token, { prompt: 'remix it', remix_from_video_id: source });
  t.equal(remix.statusCode, 200);
  t.match((await poll(gateway, token, remix.json().task_id)).json(), { remixed_from_upstream: 'upstream-task-1' });
  const other = await issueToken(t, gateway);
  const stolen = await submit(gateway, other, { prompt: 'remix it', remix_from_video_id: source });
  t.equal(stolen.statusCode, 400, "another token's task cannot be remixed");
  t.match(stolen.json(), { error: { param: 'remix_from_video_id', message: /no video task/ } });
});

t.test('the OpenAI-style /v1/videos pair shows the task as a video object', async (t) => {
  const { gateway, token } = await videoGateway(t);
  const created = await gateway.app.inject({ method: 'POST', url: '/v1/videos', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'vx-test', prompt: 'x, seconds: 8, script: succeeded' } });
  t.equal(created.statusCode, 200);
  const video = created.json();
  t.match(video, { id: /^video_/, object: 'video', model: 'vx-test', status: 'queued', progress: 0, seconds: '8' });
  const polled = await gateway.app.inject({ method: 'GET', url: `/v1/videos/${video.id}`, headers: token.bearer });
  t.match(polled.json(), { id: video.id, status: 'completed', progress: 100, error: null, prompt: 'x, seconds: 8, script: succeeded', remixed_from_video_id: null });
  const remix = await gateway.app.inject({ method: 'POST', url: `/v1/videos/${video.id}/remix`, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { prompt: 'now at night' } });
  t.equal(remix.statusCode, 200);
  t.match(remix.json(), { object: 'video', model: 'vx-test', status: 'queued', prompt: 'now at night', remixed_from_video_id: video.id });
});

for (const driver of ['sqlite', 'redis', 'postgres'] as const) {
  t.test(`task records, their holds and settlement work on the ${driver} store`, async (t) => {
    const gateway = await buildTestApp(t, driver, {
      pricing,
      providers: [{ name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] }],
      tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    });
    const token = await issueToken(t, gateway);
    const before = await storedToken(gateway, token);
    const id = (await submit(gateway, token, { prompt: 'x, seconds: 4, script: in_progress succeeded' })).json().task_id as string;
    t.match((await poll(gateway, token, id)).json(), { status: 'in_progress' });
    t.match((await poll(gateway, token, id)).json(), { status: 'succeeded' });
    const after = await storedToken(gateway, token);
    t.equal(after.used_quota - before.used_quota, unitsForSeconds(4));
    t.equal(before.remain_quota - after.remain_quota, unitsForSeconds(4));
  });
}

t.test('with max_concurrent 1, a submitted task frees its slot when it is accepted: its life is not a request in flight', async (t) => {
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: [{ name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] }],
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    rate_limits: { tokens: { max_concurrent: 1 } },
  });
  const token = await issueToken(t, gateway);
  const first = await submit(gateway, token, { prompt: 'a fox, seconds: 4, script: queued in_progress in_progress in_progress succeeded' });
  const second = await submit(gateway, token, { prompt: 'a hare, seconds: 4, script: queued in_progress in_progress in_progress succeeded' });
  t.same([first.statusCode, second.statusCode], [200, 200], 'both open tasks were accepted, one after the other');
  t.match((await poll(gateway, token, first.json().task_id)).json(), { status: 'queued' }, 'the first is still running');
});
