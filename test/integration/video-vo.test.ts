import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { sampleMp4, startFakeVeoUpstream, type FakeVeoUpstream, type VeoTaskScript } from '../fakes/veo/fake-veo-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { startCanaryServer } from '../helpers/start-canary-server.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// Both vo models at 0.10 USD a second (50000 quota units), 1.5 times that at 1080p.
const pricing = { ...scenarioPricing, 'vo-*': { per_second: 0.1, resolution_multipliers: { '720p': 1, '1080p': 1.5 } } };
const unitsFor = (seconds: number, resolution: '720p' | '1080p' = '1080p') => seconds * 50_000 * (resolution === '1080p' ? 1.5 : 1);
const upstreamKey = 'vo-upstream-key-that-must-not-leak';
const models = { 'vo-3.0-fast-generate-001': 'veo-3.0-fast-generate-001', 'vo-3.1-fast-generate-preview': 'veo-3.1-fast-generate-preview' };

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(48, 9)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(48, 7)]);
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');

async function startVeo(t: Test, apiKey = upstreamKey, storageHost?: string): Promise<FakeVeoUpstream> {
  const fake = await startFakeVeoUpstream(storageHost === undefined ? { apiKey } : { apiKey, storageHost });
  t.teardown(() => fake.close());
  return fake;
}

function voChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'vo', base_url: baseUrl, api_key: upstreamKey, models: Object.keys(models), model_map: models, groups: ['default'], ...fields };
}

/** A web server with frames for the media guard to fetch. */
async function startImageHost(t: Test): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/first.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (request.url === '/last') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(jpeg);
    else if (request.url === '/anim.gif') response.writeHead(200, { 'content-type': 'image/gif' }).end(gif);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Scenario {
  gateway: TestApp;
  token: IssuedToken;
  main: FakeVeoUpstream;
  backup: FakeVeoUpstream;
}

/**
 * Two vo channels (main first, backup second); every poll asks the upstream; frames may come
 * from loopback. `storageHost` names the fakes' storage host in their signed addresses, and
 * then the media guard allows that name only, instead of every private address.
 */
async function scenario(t: Test, options: { mainKey?: string; storageHost?: string } = {}): Promise<Scenario> {
  const main = await startVeo(t, options.mainKey, options.storageHost);
  const backup = await startVeo(t, upstreamKey, options.storageHost);
  const media = options.storageHost === undefined ? { allow_private_networks: true } : { allow_hosts: [options.storageHost] };
  const gateway = await scenarioGateway(t, {
    pricing,
    security: { encryption_key: testEncryptionKey, media },
    routing: { circuit_breaker: { failure_threshold: 1000 } },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    providers: [voChannel('vo-main', main.url, { priority: 10 }), voChannel('vo-backup', backup.url, { priority: 0 })],
  });
  return { gateway, token: await issueToken(t, gateway), main, backup };
}

const submit = (s: Scenario, body: Record<string, unknown>, model = 'vo-3.1-fast-generate-preview') =>
  s.gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...s.token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify({ model, prompt: 'a fox in snow', ...body }) });
const poll = (s: Scenario, id: string) => s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: s.token.bearer });
const download = (s: Scenario, id: string) => s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: s.token.bearer });
const submitted = async (s: Scenario, body: Record<string, unknown> = {}, script?: VeoTaskScript, model?: string): Promise<string> => {
  if (script !== undefined) s.main.nextTask(script);
  const response = await submit(s, body, model);
  if (response.statusCode !== 200) throw new Error(`submit answered ${response.statusCode}: ${response.body}`);
  return response.json().task_id as string;
};
const lastSent = (fake: FakeVeoUpstream) => fake.requests.at(-1)!.json as Record<string, any>;

t.test('each vo model: submit, poll through the upstream states to succeeded, download the mp4, charged once', async (t) => {
  const s = await scenario(t);
  for (const [model, upstreamModel] of Object.entries(models)) {
    const before = await storedToken(s.gateway, s.token);
    const response = await submit(s, { durationSeconds: 8, resolution: '720p' }, model);
    t.equal(response.statusCode, 200, model);
    const { task_id: id, ...rest } = response.json();
    t.match(id, /^video_[0-9A-Za-z]{24}$/);
    t.match(rest, { status: 'submitted', format: 'mp4', model });

    const sent = s.main.requests.at(-1)!;
    t.equal(sent.path, `/v1beta/models/${upstreamModel}:predictLongRunning`);
    t.equal(sent.headers['x-gx-api-key'], upstreamKey);
    t.strictSame(sent.json, { instances: [{ prompt: 'a fox in snow' }], parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', sampleCount: 1 } });
    const reserved = await storedToken(s.gateway, s.token);
    t.equal(before.remain_quota - reserved.remain_quota, unitsFor(8, '720p'), 'the cost is reserved at submit');

    t.match((await poll(s, id)).json(), { task_id: id, status: 'in_progress', format: 'mp4' }, 'an operation without a done key');
    t.match(s.main.requests.at(-1)!, { method: 'GET', path: new RegExp(`^/v1beta/models/${upstreamModel}/operations/`) });
    t.match((await poll(s, id)).json(), { status: 'in_progress' }, 'done: false');
    const done = (await poll(s, id)).json();
    t.match(done, { status: 'succeeded', progress: 100, seconds: 8, resolution: '720p', aspectRatio: '16:9', sampleCount: 1 });
    t.match(done.url, /^http:\/\/localhost:80\/v1\/video\/generations\/video_\w+\/content$/, "the upstream address needs the channel key, so the url is the gateway's content route");
    t.notMatch(JSON.stringify(done), new RegExp(upstreamKey), 'the channel key is nowhere in the task');
    t.notOk(JSON.stringify(done).includes(upstreamKey));

    const after = await storedToken(s.gateway, s.token);
    t.equal(after.used_quota - before.used_quota, unitsFor(8, '720p'), 'charged on success');
    t.equal(after.remain_quota, reserved.remain_quota, 'the hold became the charge');

    const record = await download(s, id);
    t.equal(record.statusCode, 200);
    const body = record.json();
    const fileId = /files\/([a-z0-9]+):download/.exec(s.main.requests.filter((request) => request.path.includes(':download')).at(-1)!.path)![1]!;
    t.match(body, { success: true, task_id: id, format: 'mp4', size: sampleMp4(fileId).length, data_url: /^data:video\/mp4;base64,/ });
    t.strictSame(Buffer.from(body.base64, 'base64'), sampleMp4(fileId));
    t.notOk(record.body.includes(upstreamKey));
  }
  t.ok(s.main.storageRequests.length >= 2);
  for (const request of s.main.storageRequests) t.equal(request.headers['x-gx-api-key'], undefined, 'the key never reaches the storage host');
  t.notOk(s.gateway.logLines.join('').includes(upstreamKey), 'nor the logs');
  t.equal(s.backup.requests.length, 0);
});

t.test('the first poll can already find the task done; polling a finished task asks no more and charges nothing more', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, {}, { pendingPolls: 0 });
  t.match((await poll(s, id)).json(), { status: 'succeeded' });
  const asked = s.main.requests.length;
  const settled = await storedToken(s.gateway, s.token);
  t.equal(settled.used_quota - before.used_quota, unitsFor(4), 'default 4 seconds at the default 1080p');
  await poll(s, id);
  t.equal(s.main.requests.length, asked);
  t.strictSame(await storedToken(s.gateway, s.token), settled);
});

t.test('every requested video is billed: seconds × sampleCount × the resolution multiplier', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, { durationSeconds: 6, sampleCount: 3 }, { pendingPolls: 0 });
  t.equal(before.remain_quota - (await storedToken(s.gateway, s.token)).remain_quota, unitsFor(18), 'reserved for three videos');
  t.equal(lastSent(s.main).parameters.sampleCount, 3);
  t.match((await poll(s, id)).json(), { status: 'succeeded', sampleCount: 3 });
  const after = await storedToken(s.gateway, s.token);
  t.equal(after.used_quota - before.used_quota, unitsFor(18));
  t.equal(before.remain_quota - after.remain_quota, unitsFor(18));
});

t.test('videos removed by the safety filters are not billed when others were made', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, { durationSeconds: 8, sampleCount: 2, resolution: '720p' }, { pendingPolls: 0, filteredCount: 1 });
  t.match((await poll(s, id)).json(), { status: 'succeeded' });
  const after = await storedToken(s.gateway, s.token);
  t.equal(after.used_quota - before.used_quota, unitsFor(8, '720p'), 'one video of two');
  t.equal(before.remain_quota - after.remain_quota, unitsFor(8, '720p'), 'the rest of the hold came back');
});

t.test('a failed operation fails the task with its code and message, and refunds it', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, {}, { pendingPolls: 1, outcome: 'failed', errorCode: 3, errorMessage: 'The prompt could not be used.' });
  t.match((await poll(s, id)).json(), { status: 'in_progress' });
  const failed = (await poll(s, id)).json();
  t.match(failed, { status: 'failed', error: { code: 400, message: 'The prompt could not be used.', type: 'INVALID_ARGUMENT' } });
  t.strictSame(await storedToken(s.gateway, s.token), before, 'the whole hold came back');
  const video = await s.gateway.app.inject({ method: 'GET', url: `/v1/videos/${id}`, headers: s.token.bearer });
  t.match(video.json(), { status: 'failed', error: { code: 'INVALID_ARGUMENT', message: 'The prompt could not be used.' } });
});

t.test('a task the safety filters emptied fails as content_filtered with the reasons, and is refunded', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, { sampleCount: 2 }, { pendingPolls: 0, outcome: 'filtered', filteredReasons: ['The prompt names a real person.'] });
  t.match((await poll(s, id)).json(), { status: 'failed', error: { code: 400, type: 'content_filtered', message: /The prompt names a real person\./ } });
  t.strictSame(await storedToken(s.gateway, s.token), before);
  const early = await download(s, id);
  t.equal(early.statusCode, 400, 'nothing to download');
});

t.test('a task the upstream lost fails as vanished and is refunded; a passing upstream failure leaves it as it was', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const flaky = await submitted(s, {}, { pendingPolls: 0 });
  s.main.next({ error: 503 });
  t.match((await poll(s, flaky)).json(), { status: 'queued' }, 'a 503 on the poll changes nothing');
  t.match((await poll(s, flaky)).json(), { status: 'succeeded' });
  const lost = await submitted(s, {}, { pendingPolls: 1, outcome: 'vanished' });
  t.match((await poll(s, lost)).json(), { status: 'in_progress' });
  t.match((await poll(s, lost)).json(), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  const after = await storedToken(s.gateway, s.token);
  t.equal(after.used_quota - before.used_quota, unitsFor(4), 'only the task that succeeded is charged');
  t.equal(before.remain_quota - after.remain_quota, unitsFor(4));
});

t.test('a first frame by URL, data URI or base64, and a last frame, reach the upstream as inline bytes', async (t) => {
  const s = await scenario(t);
  const images = await startImageHost(t);
  await submitted(s, { image: `${images}/first.png` });
  t.strictSame(lastSent(s.main).instances[0].image, { bytesBase64Encoded: png.toString('base64'), mimeType: 'image/png' });
  await submitted(s, { image: `data:image/jpeg;base64,${jpeg.toString('base64')}` }, undefined, 'vo-3.0-fast-generate-001');
  t.strictSame(lastSent(s.main).instances[0].image, { bytesBase64Encoded: jpeg.toString('base64'), mimeType: 'image/jpeg' });
  await submitted(s, { image: png.toString('base64'), lastFrame: `${images}/last` });
  t.strictSame(lastSent(s.main).instances[0], {
    prompt: 'a fox in snow',
    image: { bytesBase64Encoded: png.toString('base64'), mimeType: 'image/png' },
    lastFrame: { bytesBase64Encoded: jpeg.toString('base64'), mimeType: 'image/jpeg' },
  });
});

t.test('a multipart submission takes its frames as files and its numbers as text', async (t) => {
  const s = await scenario(t);
  const form = new FormData();
  for (const [name, value] of Object.entries({ model: 'vo-3.1-fast-generate-preview', prompt: 'a fox', durationSeconds: '6', resolution: '720p', generateAudio: 'true', sampleCount: '2' })) form.append(name, value);
  form.append('image', new Blob([png], { type: 'image/png' }), 'first.png');
  form.append('lastFrame', new Blob([jpeg], { type: 'image/jpeg' }), 'last.jpg');
  const serialized = new Response(form);
  const before = await storedToken(s.gateway, s.token);
  const response = await s.gateway.app.inject({
    method: 'POST',
    url: '/v1/video/generations',
    headers: { ...s.token.bearer, 'content-type': serialized.headers.get('content-type')! },
    payload: Buffer.from(await serialized.arrayBuffer()),
  });
  t.equal(response.statusCode, 200, response.body);
  t.strictSame(lastSent(s.main), {
    instances: [{ prompt: 'a fox', image: { bytesBase64Encoded: png.toString('base64'), mimeType: 'image/png' }, lastFrame: { bytesBase64Encoded: jpeg.toString('base64'), mimeType: 'image/jpeg' } }],
    parameters: { aspectRatio: '16:9', durationSeconds: 6, resolution: '720p', sampleCount: 2 },
  });
  t.equal(before.remain_quota - (await storedToken(s.gateway, s.token)).remain_quota, unitsFor(12, '720p'));
});

t.test('each invalid field is a 400 naming it; nothing is reserved and the upstream is not asked', async (t) => {
  const s = await scenario(t);
  const images = await startImageHost(t);
  const before = await storedToken(s.gateway, s.token);
  const cases: Array<[Record<string, unknown>, string, RegExp, string?]> = [
    [{ prompt: undefined }, 'prompt', /required/],
    [{ prompt: '' }, 'prompt', /must not be empty/],
    [{ durationSeconds: 5 }, 'durationSeconds', /expected 4, 6 or 8/],
    [{ duration: 10 }, 'duration', /expected 4, 6 or 8/],
    [{ durationSeconds: 4, duration: 8 }, 'duration', /conflicts/],
    [{ aspectRatio: '1:1' }, 'aspectRatio', /expected 16:9 or 9:16/],
    [{ resolution: '4k' }, 'resolution', /expected 720p or 1080p/],
    [{ fps: 30 }, 'fps', /24/],
    [{ image: 'ftp://example.com/a.png' }, 'image', /not fetched/],
    [{ image: gif.toString('base64') }, 'image', /gif/],
    [{ image: `${images}/first.png`, lastFrame: `${images}/last` }, 'lastFrame', /first frame only/, 'vo-3.0-fast-generate-001'],
    [{ lastFrame: `${images}/last` }, 'lastFrame', /needs a first frame/],
    [{ generateAudio: 'yes' }, 'generateAudio', /true or false/],
    [{ personGeneration: 'everyone' }, 'personGeneration', /allow_all/],
    [{ addWatermark: 'no' }, 'addWatermark', /true or false/],
    [{ seed: -1 }, 'seed', /0 to 2147483647/],
    [{ seed: 4_294_967_295 }, 'seed', /0 to 2147483647/],
    [{ sampleCount: 0 }, 'sampleCount', /1 to 4/],
    [{ sampleCount: 5 }, 'sampleCount', /at most 4/],
    [{ negativePrompt: 3 }, 'negativePrompt', /string/],
    [{ size: '1280x720' }, 'size', /unknown field/],
  ];
  for (const [fields, param, message, model] of cases) {
    const response = await submit(s, fields, model);
    t.equal(response.statusCode, 400, `${JSON.stringify(fields)} → 400`);
    t.match(response.json(), { error: { type: 'invalid_request_error', param, message } }, param);
  }
  const refusedAtFetch = await submit(s, { image: `${images}/anim.gif` });
  t.equal(refusedAtFetch.statusCode, 400, 'a URL to a gif is refused once fetched');
  t.match(refusedAtFetch.json(), { error: { param: 'image', message: /png, jpeg or webp/ } });
  t.equal(s.main.requests.length + s.backup.requests.length, 0, 'the upstream was never asked');
  t.strictSame(await storedToken(s.gateway, s.token), before, 'nothing reserved, nothing charged');
});

t.test('the fields the Gemini API does not take are accepted but never sent', async (t) => {
  const s = await scenario(t);
  const response = await submit(s, { fps: 24, seed: 42, generateAudio: true, addWatermark: true, personGeneration: 'allow_adult', negativePrompt: 'blurry' });
  t.equal(response.statusCode, 200, 'the fake would refuse seed, fps, generateAudio and addWatermark with a 400');
  t.strictSame(lastSent(s.main).parameters, { aspectRatio: '16:9', durationSeconds: 4, resolution: '1080p', sampleCount: 1, negativePrompt: 'blurry', personGeneration: 'allow_adult' });
});

t.test('an upstream refusal at submit is a 502 with its code and param; nothing is charged or retried', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  s.main.next({ error: 400, message: "`negativePrompt` isn't supported by this model." });
  const response = await submit(s, { negativePrompt: 'blurry' });
  t.equal(response.statusCode, 502);
  t.match(response.json(), { error: { code: 'INVALID_ARGUMENT', param: 'negativePrompt', message: /isn't supported by this model/ } });
  t.equal(s.backup.requests.length, 0, 'another channel would refuse it too');
  t.strictSame(await storedToken(s.gateway, s.token), before);
});

t.test('an upstream 5xx, 429 or a refused channel key at submit moves the task to the next channel', async (t) => {
  for (const [what, behaviour, mainKey] of [
    ['503', { error: 503 }, undefined],
    ['429', { error: 429 }, undefined],
    ['a refused key', {}, 'another-key'],
  ] as const) {
    const s = await scenario(t, mainKey === undefined ? {} : { mainKey });
    s.main.next(behaviour);
    const before = await storedToken(s.gateway, s.token);
    const response = await submit(s, {});
    t.equal(response.statusCode, 200, what);
    t.strictSame(lastAttempts(s.gateway).map((attempt) => attempt.split(':')[0]), ['vo-main', 'vo-backup'], what);
    const id = response.json().task_id as string;
    t.equal(s.backup.requests.length, 1);
    await poll(s, id);
    await poll(s, id);
    t.match((await poll(s, id)).json(), { status: 'succeeded' }, `${what}: the task is polled on the channel that accepted it`);
    t.equal(s.backup.requests.filter((request) => request.method === 'GET').length, 3);
    const after = await storedToken(s.gateway, s.token);
    t.equal(after.used_quota - before.used_quota, unitsFor(4), `${what}: charged once`);
  }
});

t.test('the OpenAI-style /v1/videos pair shows a vo task as a video object', async (t) => {
  const s = await scenario(t);
  s.main.nextTask({ pendingPolls: 0 });
  const created = await s.gateway.app.inject({
    method: 'POST',
    url: '/v1/videos',
    headers: { ...s.token.bearer, 'content-type': 'application/json' },
    payload: { model: 'vo-3.0-fast-generate-001', prompt: 'a fox', durationSeconds: 6 },
  });
  t.equal(created.statusCode, 200);
  t.match(created.json(), { id: /^video_/, object: 'video', model: 'vo-3.0-fast-generate-001', status: 'queued', seconds: '6' });
  const polled = await s.gateway.app.inject({ method: 'GET', url: `/v1/videos/${created.json().id}`, headers: s.token.bearer });
  t.match(polled.json(), { status: 'completed', progress: 100, error: null });
});

t.test('the storage address a download redirects to goes through the media guard: the one name allowed streams', async (t) => {
  const s = await scenario(t, { storageHost: 'localhost' });
  const id = await submitted(s, {}, { pendingPolls: 0 });
  t.match((await poll(s, id)).json(), { status: 'succeeded' });
  const content = await s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}/content`, headers: s.token.bearer });
  t.equal(content.statusCode, 200);
  t.equal(content.headers['content-type'], 'video/mp4');
  const fileId = /files\/([a-z0-9]+):download/.exec(s.main.requests.at(-1)!.path)![1]!;
  t.strictSame(content.rawPayload, sampleMp4(fileId));
  t.equal(s.main.storageRequests.length, 1);
  t.equal(s.main.storageRequests[0]!.headers.host, `localhost:${new URL(s.main.storageUrl).port}`, 'fetched under the name security.media allows');
  t.equal(s.main.storageRequests[0]!.headers['x-gx-api-key'], undefined);
});

t.test('a download the upstream redirects to loopback or cloud metadata is refused: no fetch, a 502, nothing charged', async (t) => {
  const canary = await startCanaryServer(t);
  const s = await scenario(t, { storageHost: 'localhost' });
  const id = await submitted(s, {}, { pendingPolls: 0 });
  t.match((await poll(s, id)).json(), { status: 'succeeded' });
  const charged = await storedToken(s.gateway, s.token);
  const cases: Array<[string, RegExp]> = [
    [`${canary.url}/secret.mp4`, /^the upstream pointed the gateway at 127\.0\.0\.1, a loopback address/],
    ['http://169.254.169.254/computeMetadata/v1/instance/service-accounts/default/token', /pointed the gateway at 169\.254\.169\.254, a link-local address, where cloud metadata services answer/],
  ];
  for (const [location, why] of cases) {
    for (const url of [`/v1/video/generations/${id}/content`, `/v1/video/generations/download?id=${id}`]) {
      // The content route reads the operation again, then downloads: the second request redirects.
      s.main.next({});
      s.main.next({ redirectTo: location });
      const refused = await s.gateway.app.inject({ method: 'GET', url, headers: s.token.bearer });
      t.equal(refused.statusCode, 502, `${url} → 502`);
      t.match(refused.json(), { error: { code: 'upstream_url_refused', message: why } }, location);
      t.notMatch(refused.body, 'canary secret');
      t.match(s.main.requests.at(-1)!, { method: 'GET', path: /:download$/ }, 'the channel’s own download was asked, with its key');
    }
  }
  t.strictSame(canary.hits, [], 'the canary was never asked');
  t.equal(canary.connections, 0, 'nor connected to');
  t.equal(s.main.storageRequests.length, 0);
  t.strictSame(await storedToken(s.gateway, s.token), charged, 'a refused download charges and refunds nothing');
});

t.test('a video address on another origin goes through the media guard without the key, and loopback is refused', async (t) => {
  const canary = await startCanaryServer(t);
  const s = await scenario(t, { storageHost: 'localhost' });
  const before = await storedToken(s.gateway, s.token);
  const id = await submitted(s, {}, { pendingPolls: 0, videoUri: `${canary.url}/v1beta/files/stolen:download?alt=media` });
  t.match((await poll(s, id)).json(), { status: 'succeeded' });
  const charged = await storedToken(s.gateway, s.token);
  t.equal(charged.used_quota - before.used_quota, unitsFor(4), 'the task itself is charged once');
  const refused = await s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}/content`, headers: s.token.bearer });
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'upstream_url_refused', message: /^the upstream pointed the gateway at 127\.0\.0\.1, a loopback address/ } });
  t.strictSame(canary.hits, [], 'neither the key nor a request reached the canary');
  t.equal(canary.connections, 0);
  t.strictSame(await storedToken(s.gateway, s.token), charged);
});
