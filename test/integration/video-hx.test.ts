import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { moderationFailure, sampleMp4, startFakeDashScopeUpstream, videoSynthesisPath, type FakeDashScopeUpstream } from '../fakes/dashscope/fake-dashscope-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, type IssuedToken, type StoredToken } from '../helpers/gateway-scenario.js';

// hx costs 0.10 USD a second (50000 quota units) at 720p and twice that at 1080p.
const pricing = { ...scenarioPricing, 'hx-*': { per_second: 0.1, resolution_multipliers: { '720p': 1, '1080p': 2 } } };
const units = (seconds: number, multiplier = 1) => seconds * 50_000 * multiplier;

const recorded = JSON.parse(readFileSync(new URL('../fixtures/hx/dashscope-happyhorse-requests.json', import.meta.url), 'utf8'));
const upstreamKey = 'dashscope-upstream-key';
const modelMap = { 'hx-1.0-t2v': 'happyhorse-1.0-t2v', 'hx-1.0-i2v': 'happyhorse-1.0-i2v', 'hx-1.0-r2v': 'happyhorse-1.0-r2v' };

async function startDashScope(t: Test): Promise<FakeDashScopeUpstream> {
  const fake = await startFakeDashScopeUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

/** The gateway with one hx channel per fake, the first fake first; polls reach the upstream every time. */
async function hxGateway(t: Test, fakes: FakeDashScopeUpstream[]): Promise<{ gateway: TestApp; token: IssuedToken }> {
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: fakes.map((fake, index) => ({
      name: `hx-${index + 1}`,
      plugin: 'hx',
      base_url: fake.url,
      api_key: upstreamKey,
      models: Object.keys(modelMap),
      model_map: modelMap,
      groups: ['default'],
      priority: fakes.length - index,
    })),
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
  });
  return { gateway, token: await issueToken(t, gateway) };
}

/** The client body carrying a recorded HappyHorse request: its input and parameters as metadata. */
const clientBodyOf = (name: 't2v' | 'i2v' | 'r2v', top: Record<string, unknown> = {}) => ({
  model: `hx-1.0-${name}`,
  ...top,
  metadata: { input: recorded[name].input, parameters: recorded[name].parameters },
});

const submit = (gateway: TestApp, token: IssuedToken, body: Record<string, unknown>): Promise<LightMyRequestResponse> =>
  gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: body });
const poll = async (gateway: TestApp, token: IssuedToken, id: string) => (await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer })).json();

async function accepted(t: Test, gateway: TestApp, token: IssuedToken, body: Record<string, unknown>): Promise<string> {
  const response = await submit(gateway, token, body);
  t.equal(response.statusCode, 200, response.payload);
  t.match(response.json(), { task_id: /^video_/, status: 'submitted', format: 'mp4' });
  return response.json().task_id as string;
}

async function spent(gateway: TestApp, token: IssuedToken, before: StoredToken): Promise<{ used: number; remainDrop: number }> {
  const after = await storedToken(gateway, token);
  return { used: after.used_quota - before.used_quota, remainDrop: before.remain_quota - after.remain_quota };
}

const submits = (fake: FakeDashScopeUpstream) => fake.requests.filter((request) => request.path === videoSynthesisPath);

t.test('each recorded HappyHorse request, sent as hx metadata, reaches the upstream unchanged and runs to succeeded', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await hxGateway(t, [fake]);
  for (const name of ['t2v', 'i2v', 'r2v'] as const) {
    const before = await storedToken(gateway, token);
    const id = await accepted(t, gateway, token, clientBodyOf(name, name === 't2v' ? { prompt: recorded.t2v.input.prompt, duration: 5 } : {}));
    const sent = submits(fake).at(-1)!;
    t.strictSame(sent.json, recorded[name], `${name}: the recorded body, byte for byte in meaning and order`);
    t.equal(sent.headers['x-dashscope-async'], 'enable');
    t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
    const tier = recorded[name].parameters.resolution === '1080P' ? 2 : 1;
    t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: units(5, tier) }, `${name}: 5 seconds held at its tier`);
    t.match(await poll(gateway, token, id), { status: 'queued', seconds: 5, resolution: tier === 2 ? '1080p' : '720p' });
    t.match(await poll(gateway, token, id), { status: 'in_progress' });
    const done = await poll(gateway, token, id);
    t.match(done, { status: 'succeeded', url: new RegExp(`^${fake.url}/videos/[0-9a-f-]{36}\\.mp4\\?`) }, name);
    t.strictSame(Buffer.from(await (await fetch(done.url)).arrayBuffer()), Buffer.from(sampleMp4), `${name}: the URL serves the MP4`);
    t.strictSame(await spent(gateway, token, before), { used: units(5, tier), remainDrop: units(5, tier) }, `${name}: charged on success`);
  }
});

t.test('hx sends the spec’s 1080P default and bills it', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await hxGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const id = await accepted(t, gateway, token, { model: 'hx-1.0-t2v', prompt: 'a horse at dawn', duration: 8, metadata: { input: {} } });
  t.strictSame(submits(fake)[0]!.json, { model: 'happyhorse-1.0-t2v', input: { prompt: 'a horse at dawn' }, parameters: { resolution: '1080P', duration: 8 } });
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.strictSame(await spent(gateway, token, before), { used: units(8, 2), remainDrop: units(8, 2) });
});

t.test('every invalid hx field is a 400 naming its path; nothing is reserved and the upstream is not called', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await hxGateway(t, [fake]);
  const before = await storedToken(gateway, token);
  const t2v = (parameters: Record<string, unknown> = {}, input: Record<string, unknown> = { prompt: 'x' }, top: Record<string, unknown> = {}) => ({ model: 'hx-1.0-t2v', ...top, metadata: { input, parameters } });
  const i2v = (media: unknown[], parameters: Record<string, unknown> = {}) => ({ model: 'hx-1.0-i2v', metadata: { input: { media }, parameters } });
  const r2v = (media: unknown[]) => ({ model: 'hx-1.0-r2v', metadata: { input: { prompt: '[Image 1]', media } } });
  const frame = { type: 'first_frame', url: 'https://e.com/a.png' };
  const reference = { type: 'reference_image', url: 'https://e.com/a.png' };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ model: 'hx-1.0-t2v', prompt: 'x' }, 'metadata'],
    [{ model: 'hx-1.0-t2v', metadata: {} }, 'metadata.input'],
    [t2v({}, {}), 'metadata.input.prompt'],
    [t2v({}, { prompt: 'x' }, { duration: 2 }), 'duration'],
    [t2v({ duration: 5 }, { prompt: 'x' }, { duration: 6 }), 'duration'],
    [t2v({ duration: 16 }), 'metadata.parameters.duration'],
    [t2v({ resolution: '480P' }), 'metadata.parameters.resolution'],
    [t2v({ ratio: '2:1' }), 'metadata.parameters.ratio'],
    [t2v({ watermark: 1 }), 'metadata.parameters.watermark'],
    [t2v({ seed: 2147483648 }), 'metadata.parameters.seed'],
    [t2v({ prompt_extend: true }), 'metadata.parameters.prompt_extend'],
    [t2v({}, { prompt: 'x', media: [frame] }), 'metadata.input.media'],
    [t2v({}, { prompt: 'x', negative_prompt: 'y' }), 'metadata.input.negative_prompt'],
    [t2v({}, { prompt: 'x' }, { resolution: '720P' }), 'resolution'],
    [i2v([]), 'metadata.input.media'],
    [i2v([frame, { type: 'last_frame', url: 'https://e.com/b.png' }]), 'metadata.input.media[1].type'],
    [i2v([frame], { ratio: '16:9' }), 'metadata.parameters.ratio'],
    [i2v([{ type: 'first_frame', url: 'ftp://e.com/a.png' }]), 'metadata.input.media[0].url'],
    [r2v([]), 'metadata.input.media'],
    [r2v(Array(10).fill(reference)), 'metadata.input.media'],
    [r2v([{ type: 'reference_video', url: 'https://e.com/a.mp4' }]), 'metadata.input.media[0].type'],
  ];
  for (const [body, param] of cases) {
    const response = await submit(gateway, token, body);
    t.equal(response.statusCode, 400, `${param}: ${response.payload}`);
    t.match(response.json(), { error: { type: 'invalid_request_error', param, message: new RegExp(`^${param.replace(/[.[\]]/g, '\\$&')}: `) } }, param);
  }
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 }, 'nothing was reserved');
  t.equal(fake.requests.length, 0, 'the upstream was never called');
});

t.test('failed, moderated, canceled and lost tasks end failed with their code and message, and are refunded', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await hxGateway(t, [fake]);
  const ends: Array<[string, Parameters<FakeDashScopeUpstream['next']>[0], Record<string, unknown>]> = [
    ['FAILED', { taskEnd: 'FAILED' }, { code: 500, type: 'InternalError' }],
    ['FAILED by moderation', { taskEnd: 'FAILED', taskFailure: moderationFailure }, { code: 400, message: /moderation blocked the video/, type: 'DataInspectionFailed' }],
    ['CANCELED', { taskEnd: 'CANCELED' }, { code: 499, type: 'Canceled' }],
    ['UNKNOWN', { taskEnd: 'UNKNOWN' }, { code: 404, type: 'task_vanished' }],
  ];
  for (const [name, behaviour, error] of ends) {
    const before = await storedToken(gateway, token);
    fake.next(behaviour);
    const id = await accepted(t, gateway, token, clientBodyOf('r2v'));
    t.match(await poll(gateway, token, id), { status: 'queued' });
    t.match(await poll(gateway, token, id), { status: 'in_progress' });
    t.match(await poll(gateway, token, id), { status: 'failed', error }, name);
    t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 }, `${name}: refunded`);
  }
  const before = await storedToken(gateway, token);
  const lost = await accepted(t, gateway, token, clientBodyOf('i2v'));
  fake.next({ error: 404 });
  t.match(await poll(gateway, token, lost), { status: 'failed', error: { code: 404, type: 'task_vanished' } }, 'an HTTP 404 on a poll');
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 });
});

t.test('the upstream’s usage decides the charge; without a known tier the estimate is charged', async (t) => {
  const fake = await startDashScope(t);
  const { gateway, token } = await hxGateway(t, [fake]);
  let before = await storedToken(gateway, token);
  fake.next({ usage: { SR: 1080, duration: 10, output_video_duration: 10, video_count: 1 } });
  let id = await accepted(t, gateway, token, clientBodyOf('i2v'));
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.strictSame(await spent(gateway, token, before), { used: units(10, 2), remainDrop: units(10, 2) });
  before = await storedToken(gateway, token);
  fake.next({ usage: { duration: 5 } });
  id = await accepted(t, gateway, token, clientBodyOf('i2v'));
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.strictSame(await spent(gateway, token, before), { used: units(5), remainDrop: units(5) }, 'no SR: the 5 seconds at 720p reserved');
});

t.test('an upstream refusal at submit is a 502 with its code and param; a 5xx fails over to the next channel', async (t) => {
  const [first, second] = [await startDashScope(t), await startDashScope(t)];
  const { gateway, token } = await hxGateway(t, [first, second]);
  const before = await storedToken(gateway, token);
  first.next({ status: 400, body: { request_id: 'x', code: 'InvalidParameter', message: 'parameters.ratio 9:16 is not supported for this model' } });
  const refused = await submit(gateway, token, clientBodyOf('r2v'));
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'InvalidParameter', param: 'metadata.parameters.ratio', message: /9:16 is not supported/ } });
  t.equal(second.requests.length, 0);
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: 0 });

  first.next({ error: 503 });
  const id = await accepted(t, gateway, token, clientBodyOf('t2v'));
  t.strictSame(lastAttempts(gateway), ['hx-1:failed', 'hx-2:success']);
  for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.equal(second.requests.filter((request) => request.path.startsWith('/api/v1/tasks/')).length, 3, 'polled on the channel that accepted it');
});

t.test('one wn-hx channel serves the hx and wn families side by side, each model by its own family’s rules and tiers', async (t) => {
  const fake = await startDashScope(t);
  const gateway = await scenarioGateway(t, {
    pricing: { ...pricing, 'wn2.7-*': { per_second: 0.1, resolution_multipliers: { '720p': 1, '1080p': 2 } } },
    providers: [
      {
        name: 'dashscope',
        plugin: 'hx',
        base_url: fake.url,
        api_key: upstreamKey,
        models: ['hx-1.0-t2v', 'wn2.7-t2v-2026-04-25'],
        model_map: { 'hx-1.0-t2v': 'happyhorse-1.0-t2v', 'wn2.7-t2v-2026-04-25': 'wan2.7-t2v-2026-04-25' },
        groups: ['default'],
      },
    ],
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
  });
  const token = await issueToken(t, gateway);
  const before = await storedToken(gateway, token);
  const hx = await accepted(t, gateway, token, { model: 'hx-1.0-t2v', metadata: { input: { prompt: 'a horse' } } });
  const wn = await accepted(t, gateway, token, { model: 'wn2.7-t2v-2026-04-25', metadata: { input: { prompt: 'a lighthouse' } } });
  t.strictSame(
    submits(fake).map((request) => request.json),
    [
      { model: 'happyhorse-1.0-t2v', input: { prompt: 'a horse' }, parameters: { resolution: '1080P', duration: 5 } },
      { model: 'wan2.7-t2v-2026-04-25', input: { prompt: 'a lighthouse' }, parameters: { resolution: '720P', duration: 5 } },
    ],
    'hx defaults to 1080P and wn2.7 to 720P',
  );
  t.strictSame(await spent(gateway, token, before), { used: 0, remainDrop: units(5, 2) + units(5, 1) });
  for (const id of [hx, wn]) for (let index = 0; index < 3; index += 1) await poll(gateway, token, id);
  t.strictSame(await spent(gateway, token, before), { used: units(5, 2) + units(5, 1), remainDrop: units(5, 2) + units(5, 1) }, 'each charged at its own tier');
  const wrongRules = await submit(gateway, token, { model: 'wn2.7-t2v-2026-04-25', metadata: { input: { prompt: 'x' }, parameters: { ratio: '9:21' } } });
  t.match(wrongRules.json(), { error: { param: 'metadata.parameters.ratio', message: /expected one of 16:9, 9:16, 1:1, 4:3, 3:4$/ } }, 'a wn model is held to wn’s ratios, not hx’s');
});
