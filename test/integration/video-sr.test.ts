import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { fakeMp4, openAiErrorBody, startFakeOpenAiUpstream, videoBehaviours, type FakeOpenAiUpstream, type RecordedRequest } from '../fakes/openai/fake-openai-upstream.js';
import { recordedVideoForm } from '../fakes/openai/videos-request.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// sr-2 at 0.10 USD a second, 1.5 times that at 720p (both sr-2 sizes): 0.15 USD, and at
// 500000 quota units per USD, 75000 units a second.
const pricing = { ...scenarioPricing, 'sr-2': { per_second: 0.1, resolution_multipliers: { '720p': 1.5, '1080p': 2 } } };
const unitsFor = (seconds: number) => seconds * 75_000;
const upstreamKey = 'sr-upstream-key';

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(48, 9)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(48, 7)]);

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

function srChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'sr', base_url: baseUrl, api_key: upstreamKey, models: ['sr-2'], model_map: { 'sr-2': 'sora-2' }, groups: ['default'], ...fields };
}

/** A web server with reference images for the media guard to fetch, counting its hits. */
async function startImageHost(t: Test): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/first.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (request.url === '/page.html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

interface Scenario {
  gateway: TestApp;
  token: IssuedToken;
  main: FakeOpenAiUpstream;
  backup: FakeOpenAiUpstream;
}

/** Two sr channels (main first, backup second); every poll asks the upstream; reference images may come from loopback unless `media` says otherwise. */
async function scenario(t: Test, media: Record<string, unknown> = { allow_private_networks: true }): Promise<Scenario> {
  const main = await startOpenAi(t);
  const backup = await startOpenAi(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    security: { encryption_key: testEncryptionKey, media },
    routing: { circuit_breaker: { failure_threshold: 1000 } },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    providers: [srChannel('sr-main', main.url, { priority: 10 }), srChannel('sr-backup', backup.url, { priority: 0 })],
  });
  return { gateway, token: await issueToken(t, gateway), main, backup };
}

const post = (s: Scenario, path: string, body: unknown) =>
  s.gateway.app.inject({ method: 'POST', url: path, headers: { ...s.token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const submit = (s: Scenario, body: Record<string, unknown>) => post(s, '/v1/video/generations', { model: 'sr-2', prompt: 'a fox in snow', ...body });

async function postForm(s: Scenario, path: string, form: FormData) {
  const serialized = new Response(form);
  const payload = Buffer.from(await serialized.arrayBuffer());
  return s.gateway.app.inject({ method: 'POST', url: path, headers: { ...s.token.bearer, 'content-type': serialized.headers.get('content-type')! }, payload });
}

function videoForm(fields: Record<string, string>, files: Array<{ field?: string; bytes: Buffer; type: string }> = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ model: 'sr-2', prompt: 'a fox in snow', ...fields })) form.append(name, value);
  for (const file of files) form.append(file.field ?? 'input_reference', new Blob([file.bytes], { type: file.type }), 'first-frame');
  return form;
}

const poll = async (s: Scenario, id: string) => (await s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: s.token.bearer })).json();
const download = (s: Scenario, id: string) => s.gateway.app.inject({ method: 'GET', url: `/v1/video/generations/download?id=${id}`, headers: s.token.bearer });

/** The upstream's id of the last video the fake was asked about or made it from. */
const upstreamIdIn = (request: RecordedRequest) => /^\/v1\/videos\/([^/]+)/.exec(request.path)![1]!;

/** The reference image the upstream got as the multipart file input_reference. */
async function sentReference(request: RecordedRequest): Promise<{ fields: Record<string, string>; type: string; bytes: Buffer }> {
  const form = await recordedVideoForm(request);
  const file = form.get('input_reference') as File;
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
  return { fields, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) };
}

/** The quota units the token spent while `run` ran, checking that remain_quota fell by as much. */
async function spent(t: Test, s: Scenario, run: () => Promise<unknown>): Promise<number> {
  const before = await storedToken(s.gateway, s.token);
  await run();
  const after = await storedToken(s.gateway, s.token);
  t.equal(before.remain_quota - after.remain_quota, after.used_quota - before.used_quota, 'remain_quota falls by what used_quota rises');
  return after.used_quota - before.used_quota;
}

const upstreamCalls = (s: Scenario) => s.main.requests.length + s.backup.requests.length;

t.test('text-to-video: submit, poll through in_progress to succeeded, download the mp4, billed per second at 720p once it succeeded', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const submitted = await submit(s, { seconds: 8, size: '1280x720' });
  t.equal(submitted.statusCode, 200);
  const { task_id: id, ...rest } = submitted.json();
  t.match(id, /^video_[0-9A-Za-z]{24}$/);
  t.match(rest, { status: 'submitted', format: 'mp4', model: 'sr-2' });

  const sent = s.main.requests.at(-1)!;
  t.equal(sent.method, 'POST');
  t.equal(sent.path, '/v1/videos');
  t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
  t.strictSame(sent.json, { model: 'sora-2', prompt: 'a fox in snow', seconds: '8', size: '1280x720' }, 'JSON with seconds as a string and the mapped model');

  const reserved = await storedToken(s.gateway, s.token);
  t.equal(before.remain_quota - reserved.remain_quota, unitsFor(8), '8 s at 720p are held at submit');
  t.equal(reserved.used_quota, before.used_quota, 'nothing is charged yet');

  t.match(await poll(s, id), { task_id: id, status: 'in_progress', progress: 50, format: 'mp4', seconds: 8, size: '1280x720' });
  const upstreamId = upstreamIdIn(s.main.requests.at(-1)!);
  t.match(upstreamId, /^video_[0-9a-f]{48}$/);
  const done = await poll(s, id);
  t.match(done, { status: 'succeeded', progress: 100, seconds: 8, size: '1280x720' });
  t.equal(done.url, `http://localhost:80/v1/video/generations/${id}/content`, "the upstream keeps the video behind its key, so the url is the gateway's content route");
  t.equal(done.error, undefined);

  const settled = await storedToken(s.gateway, s.token);
  t.equal(settled.used_quota - before.used_quota, unitsFor(8), 'charged on success');
  t.equal(settled.remain_quota, reserved.remain_quota, 'the hold became the charge');

  const record = await download(s, id);
  t.equal(record.statusCode, 200);
  const mp4 = fakeMp4(upstreamId);
  t.strictSame(record.json(), {
    success: true,
    generation_id: upstreamId,
    task_id: id,
    format: 'mp4',
    size: mp4.length,
    base64: mp4.toString('base64'),
    data_url: `data:video/mp4;base64,${mp4.toString('base64')}`,
  });
  const fetched = s.main.requests.at(-1)!;
  t.equal(fetched.path, `/v1/videos/${upstreamId}/content`);
  t.equal(fetched.headers.authorization, `Bearer ${upstreamKey}`, 'the content needs the channel key');
  t.strictSame(await storedToken(s.gateway, s.token), settled, 'the download costs nothing more');
});

t.test('the defaults go upstream explicitly: 4 seconds, portrait 720x1280, billed 4 s at 720p', async (t) => {
  const s = await scenario(t);
  let id = '';
  const units = await spent(t, s, async () => {
    id = (await submit(s, {})).json().task_id;
    await poll(s, id);
    await poll(s, id);
  });
  t.strictSame(s.main.requests[0]!.json, { model: 'sora-2', prompt: 'a fox in snow', seconds: '4', size: '720x1280' });
  t.equal(units, unitsFor(4));
  t.match(await poll(s, id), { status: 'succeeded', seconds: 4, size: '720x1280' });
});

t.test('seconds may be a string or a number; 12 s is billed 12 s', async (t) => {
  const s = await scenario(t);
  for (const seconds of ['12', 12]) {
    const units = await spent(t, s, async () => {
      const id = (await submit(s, { seconds })).json().task_id;
      await poll(s, id);
      await poll(s, id);
    });
    t.equal(units, unitsFor(12), `seconds ${JSON.stringify(seconds)}`);
    t.equal((s.main.requests.find((request) => request.method === 'POST' && request.path === '/v1/videos')!.json as { seconds: string }).seconds, '12');
  }
});

t.test('every upstream state maps onto the task: queued, in_progress with its progress, succeeded', async (t) => {
  const s = await scenario(t);
  s.main.next(videoBehaviours.steps('queued', 'in_progress', 'in_progress', 'completed'));
  const id = (await submit(s, {})).json().task_id;
  const seen = [];
  for (let index = 0; index < 4; index += 1) {
    const { status, progress } = await poll(s, id);
    seen.push(`${status}:${progress}`);
  }
  t.strictSame(seen, ['queued:0', 'in_progress:50', 'in_progress:75', 'succeeded:100']);
});

t.test('a failed video shows the upstream error and is refunded', async (t) => {
  const s = await scenario(t);
  s.main.next(videoBehaviours.fails({ code: 'internal_error', message: 'The render farm fell over.' }));
  const units = await spent(t, s, async () => {
    const id = (await submit(s, {})).json().task_id;
    t.match(await poll(s, id), { status: 'in_progress' });
    const failed = await poll(s, id);
    t.match(failed, { status: 'failed', error: { code: 500, message: 'The render farm fell over.', type: 'internal_error' } });
    t.equal(failed.url, undefined);
    t.equal((await download(s, id)).statusCode, 400, 'a failed video cannot be downloaded');
  });
  t.equal(units, 0, 'the hold came back');
});

t.test('a moderation failure is failed with code 400 and moderation_blocked, refunded, shown by /v1/videos too', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  s.main.next(videoBehaviours.moderationBlocked('This content may violate our guardrails.'));
  const id = (await submit(s, {})).json().task_id;
  await poll(s, id);
  t.match(await poll(s, id), { status: 'failed', error: { code: 400, type: 'moderation_blocked', message: 'This content may violate our guardrails.' } });
  const video = (await s.gateway.app.inject({ method: 'GET', url: `/v1/videos/${id}`, headers: s.token.bearer })).json();
  t.match(video, { id, object: 'video', status: 'failed', error: { code: 'moderation_blocked', message: 'This content may violate our guardrails.' } });
  t.strictSame(await storedToken(s.gateway, s.token), before);
});

t.test('a video the upstream lost fails as vanished and is refunded', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  s.main.next(videoBehaviours.vanishes());
  const id = (await submit(s, { seconds: 12 })).json().task_id;
  t.match(await poll(s, id), { status: 'failed', error: { code: 404, type: 'task_vanished' } });
  t.strictSame(await storedToken(s.gateway, s.token), before);
});

t.test('a passing upstream failure while polling leaves the task as it was', async (t) => {
  const s = await scenario(t);
  const id = (await submit(s, {})).json().task_id;
  s.main.next({ error: 503 });
  t.match(await poll(s, id), { status: 'queued' });
  s.main.next({ error: 429 });
  t.match(await poll(s, id), { status: 'queued' });
  t.match(await poll(s, id), { status: 'in_progress' });
  t.match(await poll(s, id), { status: 'succeeded' });
});

t.test('an upstream refusal at submit is 502 with its code and param, and costs nothing', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  s.main.next({ status: 400, body: openAiErrorBody(400, 'Inpaint image must match the requested width and height', 'input_reference', 'invalid_value') });
  const refused = await submit(s, {});
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'invalid_value', param: 'input_reference', message: /must match the requested width and height/ } });
  t.equal(s.backup.requests.length, 0, 'not tried on another channel');
  t.strictSame(await storedToken(s.gateway, s.token), before);
});

t.test('a model the upstream does not take comes back as its own 502 naming model', async (t) => {
  const upstream = await startOpenAi(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [srChannel('sr-odd', upstream.url, { model_map: { 'sr-2': 'sora-3' } })] });
  const token = await issueToken(t, gateway);
  const response = await gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: { model: 'sr-2', prompt: 'x' } });
  t.equal(response.statusCode, 502);
  t.match(response.json(), { error: { code: 'invalid_value', param: 'model', message: /Invalid value: 'sora-3'/ } });
});

t.test('an upstream 5xx at submit fails over to the next channel, which then owns the task', async (t) => {
  const s = await scenario(t);
  s.main.next({ error: 500 });
  const submitted = await submit(s, {});
  t.equal(submitted.statusCode, 200);
  t.strictSame(lastAttempts(s.gateway), ['sr-main:failed', 'sr-backup:success']);
  const id = submitted.json().task_id;
  await poll(s, id);
  t.match(await poll(s, id), { status: 'succeeded' });
  t.equal(s.main.requests.length, 1, 'the failed channel is never asked about the task');
  t.strictSame(
    s.backup.requests.map((request) => `${request.method} ${request.path.replace(/video_[0-9a-f]+/, 'ID')}`),
    ['POST /v1/videos', 'GET /v1/videos/ID', 'GET /v1/videos/ID'],
  );
});

t.test('each invalid field is a 400 naming its param; nothing is reserved and the upstream is not called', async (t) => {
  const s = await scenario(t);
  const before = await storedToken(s.gateway, s.token);
  const gif = Buffer.from('GIF89a-a-gif-not-a-frame').toString('base64');
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ prompt: undefined }, 'prompt'],
    [{ prompt: ' ' }, 'prompt'],
    [{ prompt: 'x'.repeat(32_001) }, 'prompt'],
    [{ seconds: 5 }, 'seconds'],
    [{ seconds: '10' }, 'seconds'],
    [{ seconds: 4.5 }, 'seconds'],
    [{ size: '1024x1024' }, 'size'],
    [{ size: '1792x1024' }, 'size'],
    [{ input_reference: 'ftp://example.com/a.png' }, 'input_reference'],
    [{ input_reference: gif }, 'input_reference'],
    [{ input_reference: `data:image/png;base64,${gif}` }, 'input_reference'],
    [{ input_reference: { file_id: 'file-abc' } }, 'input_reference'],
    [{ input_reference: 7 }, 'input_reference'],
    [{ remix_from_video_id: 'task_123' }, 'remix_from_video_id'],
    [{ duration: 8 }, 'duration'],
    [{ image: 'https://example.com/a.png' }, 'image'],
    [{ resolution: '720p' }, 'resolution'],
    [{ aspect_ratio: '16:9' }, 'aspect_ratio'],
    [{ metadata: { seconds: 8 } }, 'metadata'],
    [{ style: 'noir' }, 'style'],
  ];
  for (const [fields, param] of cases) {
    const response = await submit(s, fields);
    const label = JSON.stringify(fields).slice(0, 60);
    t.equal(response.statusCode, 400, `${label} is refused`);
    t.match(response.json(), { error: { type: 'invalid_request_error', param, message: new RegExp(param === 'style' ? 'unknown field "style"' : `^${param}: `) } }, `${label} names ${param}`);
  }
  const forms: Array<[FormData, string]> = [
    [videoForm({ seconds: '6' }), 'seconds'],
    [videoForm({}, [{ bytes: Buffer.from('plain text, not an image'), type: 'image/png' }]), 'input_reference'],
    [videoForm({}, [{ field: 'image', bytes: png, type: 'image/png' }]), 'image'],
    [videoForm({}, [{ bytes: png, type: 'image/png' }, { bytes: png, type: 'image/png' }]), 'input_reference'],
    [videoForm({ input_reference: 'https://example.com/a.png' }, [{ bytes: png, type: 'image/png' }]), 'input_reference'],
  ];
  for (const [form, param] of forms) {
    const response = await postForm(s, '/v1/video/generations', form);
    t.equal(response.statusCode, 400, `multipart: ${param} is refused`);
    t.match(response.json(), { error: { param } });
  }
  t.strictSame(await storedToken(s.gateway, s.token), before, 'nothing reserved, nothing charged');
  t.equal(upstreamCalls(s), 0, 'the upstream never heard of them');
});

t.test('image-to-video: the reference image reaches the upstream as the multipart file input_reference', async (t) => {
  const s = await scenario(t);
  const images = await startImageHost(t);

  t.test('a URL is fetched through the media guard, once even when the first channel fails', async (t) => {
    s.main.next({ error: 502 });
    const response = await submit(s, { input_reference: `${images.url}/first.png`, seconds: '8' });
    t.equal(response.statusCode, 200);
    t.strictSame(images.hits, ['/first.png'], 'fetched once for both channels');
    const sent = await sentReference(s.backup.requests.at(-1)!);
    t.strictSame(sent.fields, { model: 'sora-2', prompt: 'a fox in snow', seconds: '8', size: '720x1280' });
    t.equal(sent.type, 'image/png');
    t.strictSame(sent.bytes, png);
  });

  t.test('bare base64, a data: URI and the JSON shape {image_url} are sent as the type their bytes show', async (t) => {
    for (const input_reference of [jpeg.toString('base64'), `data:image/png;base64,${jpeg.toString('base64')}`, { image_url: `data:image/jpeg;base64,${jpeg.toString('base64')}` }]) {
      const response = await submit(s, { input_reference });
      t.equal(response.statusCode, 200);
      const sent = await sentReference(s.main.requests.at(-1)!);
      t.equal(sent.type, 'image/jpeg');
      t.strictSame(sent.bytes, jpeg);
    }
  });

  t.test('an uploaded file on /v1/videos is forwarded with the type its bytes show', async (t) => {
    const response = await postForm(s, '/v1/videos', videoForm({ seconds: '4', size: '1280x720' }, [{ bytes: png, type: 'application/octet-stream' }]));
    t.equal(response.statusCode, 200);
    t.match(response.json(), { object: 'video', status: 'queued', seconds: '4', size: '1280x720' });
    const sent = await sentReference(s.main.requests.at(-1)!);
    t.match(sent, { type: 'image/png', fields: { size: '1280x720', seconds: '4' } });
    t.strictSame(sent.bytes, png);
  });

  t.test('a URL that is no image is a 400 on input_reference and costs nothing', async (t) => {
    const before = await storedToken(s.gateway, s.token);
    const calls = upstreamCalls(s);
    const response = await submit(s, { input_reference: `${images.url}/page.html` });
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { param: 'input_reference', code: 'unsupported_media_type', message: /^input_reference: the media is text\/html/ } });
    t.equal(upstreamCalls(s), calls);
    t.strictSame(await storedToken(s.gateway, s.token), before);
  });
});

t.test('the media guard refuses a private reference URL unless the operator allows it', async (t) => {
  const s = await scenario(t, {});
  const images = await startImageHost(t);
  const before = await storedToken(s.gateway, s.token);
  const response = await submit(s, { input_reference: `${images.url}/first.png` });
  t.equal(response.statusCode, 400);
  t.match(response.json(), { error: { code: 'media_url_not_allowed', param: 'input_reference' } });
  t.strictSame(images.hits, []);
  t.equal(upstreamCalls(s), 0);
  t.strictSame(await storedToken(s.gateway, s.token), before);
});

t.test('the OpenAI-style pair: POST /v1/videos (JSON and multipart) and GET /v1/videos/{id} until completed', async (t) => {
  const s = await scenario(t);
  const created = await postForm(s, '/v1/videos', videoForm({ seconds: '8', size: '1280x720' }));
  t.equal(created.statusCode, 200);
  const video = created.json();
  t.match(video, { id: /^video_[0-9A-Za-z]{24}$/, object: 'video', model: 'sr-2', status: 'queued', progress: 0, seconds: '8', size: '1280x720', error: null });
  t.strictSame(s.main.requests.at(-1)!.json, { model: 'sora-2', prompt: 'a fox in snow', seconds: '8', size: '1280x720' }, 'a form without a file goes upstream as JSON');
  const retrieve = async () => (await s.gateway.app.inject({ method: 'GET', url: `/v1/videos/${video.id}`, headers: s.token.bearer })).json();
  t.match(await retrieve(), { id: video.id, status: 'in_progress', progress: 50, completed_at: null });
  t.match(await retrieve(), { id: video.id, status: 'completed', progress: 100, seconds: '8', size: '1280x720', error: null, completed_at: Number });
  const json = await post(s, '/v1/videos', { model: 'sr-2', prompt: 'a heron', seconds: 12 });
  t.match(json.json(), { object: 'video', status: 'queued', seconds: '12', size: '720x1280' });
  const generic = await poll(s, video.id);
  t.match(generic, { task_id: video.id, status: 'succeeded' }, 'the same task on the generic route');
});

t.test("remix: remix_from_video_id names the caller's finished sr-2 task; the upstream remixes its own video, billed at the new video's length", async (t) => {
  const s = await scenario(t);
  const original = (await submit(s, { seconds: 12, size: '1280x720' })).json().task_id as string;
  await poll(s, original);
  await poll(s, original);
  const originalUpstreamId = upstreamIdIn(s.main.requests.at(-1)!);

  const before = await storedToken(s.gateway, s.token);
  const remixed = await submit(s, { prompt: 'the same fox, at night', remix_from_video_id: original });
  t.equal(remixed.statusCode, 200);
  const sent = s.main.requests.at(-1)!;
  t.equal(sent.method, 'POST');
  t.equal(sent.path, `/v1/videos/${originalUpstreamId}/remix`, "the gateway's task id became the upstream's video id");
  t.strictSame(sent.json, { prompt: 'the same fox, at night' }, 'a remix sends only the prompt');
  t.equal(s.backup.requests.length, 0, 'the remix goes to the channel holding the original');
  const reserved = await storedToken(s.gateway, s.token);
  t.equal(before.remain_quota - reserved.remain_quota, unitsFor(4), 'held from the request: the default 4 s (the length is only known from the upstream)');

  const id = remixed.json().task_id as string;
  t.not(id, original);
  t.match(await poll(s, id), { status: 'in_progress', seconds: 12, size: '1280x720' }, "the upstream's answer gives the remix the original's length and size");
  t.match(await poll(s, id), { status: 'succeeded' });
  const after = await storedToken(s.gateway, s.token);
  t.equal(after.used_quota - before.used_quota, unitsFor(12), 'charged for the 12 s the upstream made');
  t.equal(before.remain_quota - after.remain_quota, unitsFor(12));

  const withImage = await submit(s, { prompt: 'x', remix_from_video_id: original, input_reference: png.toString('base64') });
  t.equal(withImage.statusCode, 400);
  t.match(withImage.json(), { error: { param: 'input_reference', message: /a remix starts from the video it remixes/ } });
  const unknown = await submit(s, { prompt: 'x', remix_from_video_id: 'video_doesnotexist' });
  t.equal(unknown.statusCode, 400);
  t.match(unknown.json(), { error: { param: 'remix_from_video_id' } });

  const settled = await storedToken(s.gateway, s.token);
  s.main.next({ status: 404, body: openAiErrorBody(404, `Video '${originalUpstreamId}' not found.`, null, 'not_found') });
  const lost = await submit(s, { prompt: 'x', remix_from_video_id: original });
  t.equal(lost.statusCode, 404, 'an original the upstream no longer has');
  t.match(lost.json(), { error: { code: 'video_not_found', param: 'remix_from_video_id', message: /no longer has this video/ } });
  t.strictSame(await storedToken(s.gateway, s.token), settled, 'costs nothing');
});
