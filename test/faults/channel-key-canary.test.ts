import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { startFakeArkUpstream, type FakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import { startFakeDashScopeUpstream, type FakeDashScopeUpstream } from '../fakes/dashscope/fake-dashscope-upstream.js';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { pcmTone, startFakeOpenAiUpstream, wavFile, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { startFakeVeoUpstream, type FakeVeoUpstream } from '../fakes/veo/fake-veo-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { startCollector } from '../helpers/otlp-collector.js';
import { issueToken, scenarioGateway, familyPricing, type IssuedToken } from '../helpers/gateway-scenario.js';

// Some upstreams echo the key they were sent in their error messages. Every family's channel
// here has a key of its own, none shaped like a known vendor key (so only redaction by value
// can find it), and with `/` and `+` so that its percent-encoded spelling differs. Each fake
// echoes its key in every spelling, in every way it can fail: status errors, in-band error
// frames before and after content, failed video tasks and failed polls. Not one spelling of
// any key may reach a response (body or header), a log line at trace level, or a span.

const keys = {
  gx: 'gxCanary/5e1d+9a7c3b2f',
  gp: 'gpCanary/8b2e+4f6a1c9d',
  gi: 'giCanary/3c7f+2d9e6a1b',
  'openai-audio': 'audioCanary/6a4d+8e2f1c3b',
  sr: 'srCanary/1f9b+7c3e5d2a',
  dsr: 'dsrCanary/4d6c+1b8a9e7f',
  qi: 'qiCanary/9e3a+6c1f4b8d',
  wn: 'wnCanary/2b8f+5d4c7e1a',
  hx: 'hxCanary/7a1e+3f9d2c6b',
  dsx: 'dsxCanary/5c2d+8a6f3e9b',
  vo: 'voCanary/8f4b+2e7a1d5c',
} as const;
type Family = keyof typeof keys;

/** How a key may be spelled where it leaks: as it is, percent-encoded, escaped in JSON. */
const spellingsOf = (key: string) => [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')];

/** An upstream message that echoes the key it was sent, the way careless upstreams do, in each spelling. */
const echoing = (family: Family) => {
  const key = keys[family];
  return `Incorrect API key provided: ${key}. Sent as Authorization: Bearer ${key} to /v1/x?key=${encodeURIComponent(key)} with {"api_key":${JSON.stringify(key)}}`;
};

const pricing = {
  ...familyPricing,
  'dsr-*': { per_image: 0.03 },
  'qi-*': { per_image: 0.04 },
  'wn2.5-*': { per_second: 0.1 },
  'hx-*': { per_second: 0.1 },
  'dsx-*': { per_second: 0.1 },
  'vo-*': { per_second: 0.1 },
};

interface Fakes {
  gx: FakeGxUpstream;
  gp: FakeOpenAiUpstream;
  gi: FakeOpenAiUpstream;
  'openai-audio': FakeOpenAiUpstream;
  sr: FakeOpenAiUpstream;
  dsr: FakeArkUpstream;
  qi: FakeDashScopeUpstream;
  wn: FakeDashScopeUpstream;
  hx: FakeDashScopeUpstream;
  dsx: FakeArkUpstream;
  vo: FakeVeoUpstream;
}

async function startFakes(t: Test): Promise<Fakes> {
  const fakes: Fakes = {
    gx: await startFakeGxUpstream({ apiKey: keys.gx }),
    gp: await startFakeOpenAiUpstream({ apiKey: keys.gp }),
    gi: await startFakeOpenAiUpstream({ apiKey: keys.gi }),
    'openai-audio': await startFakeOpenAiUpstream({ apiKey: keys['openai-audio'] }),
    sr: await startFakeOpenAiUpstream({ apiKey: keys.sr }),
    dsr: await startFakeArkUpstream({ apiKey: keys.dsr }),
    qi: await startFakeDashScopeUpstream({ apiKey: keys.qi }),
    wn: await startFakeDashScopeUpstream({ apiKey: keys.wn }),
    hx: await startFakeDashScopeUpstream({ apiKey: keys.hx }),
    dsx: await startFakeArkUpstream({ apiKey: keys.dsx }),
    vo: await startFakeVeoUpstream({ apiKey: keys.vo }),
  };
  t.teardown(() => Promise.all(Object.values(fakes).map((fake) => fake.close())));
  return fakes;
}

/** One channel per family, each with its own key; short timeouts so that stalls fail fast. */
function channelsFor(fakes: Fakes): Array<Record<string, unknown>> {
  const channel = (family: Family, plugin: string, models: string[], modelMap: Record<string, string> = {}) => ({
    name: family,
    plugin,
    base_url: fakes[family].url,
    api_key: keys[family],
    models,
    model_map: modelMap,
    groups: ['default'],
    timeouts: { first_byte_ms: 300, idle_ms: 300 },
  });
  return [
    channel('gx', 'gx', ['gx-2.5-pro']),
    channel('gp', 'gp', ['gp-5.4'], { 'gp-5.4': 'gpt-5.4' }),
    channel('gi', 'gi', ['gi-2'], { 'gi-2': 'gpt-image-2' }),
    channel('openai-audio', 'audio', ['tts-1', 'stt-1'], { 'stt-1': 'whisper-1' }),
    channel('sr', 'sr', ['sr-2'], { 'sr-2': 'sora-2' }),
    channel('dsr', 'dsr', ['dsr-3-0-t2i-250415'], { 'dsr-3-0-t2i-250415': 'doubao-seedream-3-0-t2i-250415' }),
    channel('qi', 'qi', ['qi-plus'], { 'qi-plus': 'qwen-image-plus' }),
    channel('wn', 'wn', ['wn2.5-t2v-preview'], { 'wn2.5-t2v-preview': 'wan2.5-t2v-preview' }),
    channel('hx', 'hx', ['hx-1.0-t2v'], { 'hx-1.0-t2v': 'happyhorse-1.0-t2v' }),
    channel('dsx', 'dsx', ['dsx-1-0-lite-t2v-250428'], { 'dsx-1-0-lite-t2v-250428': 'doubao-seedance-1-0-lite-t2v-250428' }),
    channel('vo', 'vo', ['vo-3.0-fast-generate-001'], { 'vo-3.0-fast-generate-001': 'veo-3.0-fast-generate-001' }),
  ];
}

const prompt = 'one two three four';

/** A client request down one route. */
type Send = (gateway: TestApp, token: IssuedToken) => Promise<LightMyRequestResponse>;

const postJson =
  (url: string, body: unknown): Send =>
  (gateway, token) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

const postTranscription: Send = async (gateway, token) => {
  const form = new FormData();
  form.append('model', 'stt-1');
  form.append('file', new Blob([wavFile(pcmTone(1))], { type: 'audio/wav' }), 'clip.wav');
  const encoded = new Request('http://client.invalid/', { method: 'POST', body: form });
  const payload = Buffer.from(await encoded.arrayBuffer());
  return gateway.app.inject({ method: 'POST', url: '/v1/audio/transcriptions', headers: { ...token.bearer, 'content-type': encoded.headers.get('content-type')! }, payload });
};

/** The routes each family serves, as a client calls them. */
const routes: Record<Family, Send[]> = {
  gx: [
    postJson('/v1/chat/completions', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: prompt }] }),
    postJson('/v1/chat/completions', { model: 'gx-2.5-pro', stream: true, messages: [{ role: 'user', content: prompt }] }),
    postJson('/v1beta/models/gx-2.5-pro:generateContent', { contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
    postJson('/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
  ],
  gp: [
    postJson('/v1/chat/completions', { model: 'gp-5.4', messages: [{ role: 'user', content: prompt }] }),
    postJson('/v1/chat/completions', { model: 'gp-5.4', stream: true, messages: [{ role: 'user', content: prompt }] }),
    postJson('/v1/responses', { model: 'gp-5.4', input: prompt }),
    postJson('/v1/responses', { model: 'gp-5.4', input: prompt, stream: true }),
  ],
  gi: [postJson('/v1/images/generations', { model: 'gi-2', prompt: 'a lighthouse', quality: 'low' })],
  'openai-audio': [postJson('/v1/audio/speech', { model: 'tts-1', input: prompt, voice: 'alloy' }), postTranscription],
  sr: [postJson('/v1/video/generations', { model: 'sr-2', prompt: 'a lighthouse', seconds: 4 }), postJson('/v1/videos', { model: 'sr-2', prompt: 'a lighthouse', seconds: '4' })],
  dsr: [postJson('/v1/images/generations', { model: 'dsr-3-0-t2i-250415', prompt: 'a lighthouse' })],
  qi: [postJson('/v1/images/generations', { model: 'qi-plus', prompt: 'a lighthouse' })],
  wn: [postJson('/v1/video/generations', { model: 'wn2.5-t2v-preview', prompt: 'a lighthouse', duration: 5 })],
  hx: [postJson('/v1/video/generations', { model: 'hx-1.0-t2v', prompt: 'a lighthouse', duration: 5, metadata: { input: {} } })],
  dsx: [postJson('/v1/video/generations', { model: 'dsx-1-0-lite-t2v-250428', prompt: 'a lighthouse' })],
  vo: [postJson('/v1/video/generations', { model: 'vo-3.0-fast-generate-001', prompt: 'a lighthouse' })],
};

/** The ways of the fault suite in which any upstream can fail one request, the key echoed where a message goes. */
function statusFaults(family: Family): Array<Record<string, unknown>> {
  const message = echoing(family);
  return [
    ...[400, 401, 403, 404, 422, 429, 500, 502, 503].map((error) => ({ error, message })),
    { status: 400, body: message },
    { resetBeforeHeaders: true },
    { stallBeforeHeadersMs: 2000 },
  ];
}

const gxContent = 'data: {"candidates": [{"content": {"parts": [{"text": "partial"}],"role": "model"},"index": 0}]}\r\n\r\n';
const chatContent = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-5.4","choices":[{"index":0,"delta":{"content":"partial"}}]}\n\n';

/** In-band failures of the streaming families, before and after content. */
function streamFaults(family: Family): Array<Record<string, unknown>> {
  const message = echoing(family);
  if (family === 'gx') {
    const frame = `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\r\n\r\n`;
    return [{ sseErrorBeforeContent: 500, message }, { sseErrorBeforeContent: 429, message }, { rawSse: [gxContent, frame], chunkDelayMs: 20 }];
  }
  if (family === 'gp') {
    const error = { type: 'server_error', code: 'server_error', message };
    return [
      { sseErrorBeforeContent: 500, message },
      { sseErrorBeforeContent: 429, message },
      { rawSse: [chatContent, `data: ${JSON.stringify({ error })}\n\n`], chunkDelayMs: 20 },
      { streamErrorBeforeContent: error },
      { streamErrorAfterContent: error },
    ];
  }
  return [];
}

/** The text of a response, headers included, as a client could read it. */
const seenBy = (response: LightMyRequestResponse) => `${JSON.stringify(response.headers)}\n${response.payload}`;

/** Polls a video task until it is over (or a few times), keeping every answer. */
async function pollUntilOver(gateway: TestApp, token: IssuedToken, id: string, seen: string[]): Promise<void> {
  for (let poll = 0; poll < 8; poll += 1) {
    const task = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer });
    const video = await gateway.app.inject({ method: 'GET', url: `/v1/videos/${id}`, headers: token.bearer });
    seen.push(seenBy(task), seenBy(video));
    if (['failed', 'succeeded'].includes((task.json() as { status?: string }).status ?? '')) return;
  }
}

/** Submits a video with the task scripted to fail with the key in its message, and a poll answered with an error echoing it. */
async function failVideoTasks(gateway: TestApp, token: IssuedToken, fakes: Fakes, seen: string[]): Promise<number> {
  let failed = 0;
  const tasks: Array<[Family, () => void, () => void]> = [
    ['sr', () => fakes.sr.next({ video: { steps: ['in_progress', 'failed'], error: { code: 'video_generation_failed', message: echoing('sr') } } } as never), () => fakes.sr.next({ error: 500, message: echoing('sr') })],
    ['wn', () => fakes.wn.next({ taskEnd: 'FAILED', taskFailure: { code: 'InternalError', message: echoing('wn') } }), () => fakes.wn.next({ error: 500, message: echoing('wn') })],
    ['hx', () => fakes.hx.next({ taskEnd: 'FAILED', taskFailure: { code: 'InternalError', message: echoing('hx') } }), () => fakes.hx.next({ error: 500, message: echoing('hx') })],
    ['dsx', () => fakes.dsx.next({ taskOutcome: 'failed', taskError: { code: 'InternalServiceError', message: echoing('dsx') } }), () => fakes.dsx.next({ error: 500, message: echoing('dsx') })],
    ['vo', () => fakes.vo.nextTask({ pendingPolls: 1, outcome: 'failed', errorCode: 3, errorMessage: echoing('vo') }), () => fakes.vo.next({ error: 500, message: echoing('vo') })],
  ];
  for (const [family, scriptFailure, failNextPoll] of tasks) {
    scriptFailure();
    const submitted = await routes[family][0]!(gateway, token);
    seen.push(seenBy(submitted));
    const id = (submitted.json() as { task_id?: string }).task_id;
    if (id === undefined) continue;
    failNextPoll();
    await pollUntilOver(gateway, token, id, seen);
    if (seen.slice(-2).some((text) => text.includes('"failed"'))) failed += 1;
  }
  return failed;
}

t.test("no channel key of any family reaches a client, a log line or a span, whichever way its upstream fails", async (t) => {
  const collector = await startCollector(t);
  const fakes = await startFakes(t);
  const gateway = await scenarioGateway(
    t,
    {
      pricing,
      providers: channelsFor(fakes),
      routing: { max_attempts: 1, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } },
      tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
      security: { media: { allow_private_networks: true } },
      observability: { tracing: { enabled: true, endpoint: `${collector.url}/v1/traces` } },
    },
    { logLevel: 'trace' },
  );
  const token = await issueToken(t, gateway);
  const seen: string[] = [];
  const statuses = new Set<number>();

  for (const family of Object.keys(keys) as Family[]) {
    const fake = fakes[family] as { next(behaviour: unknown): void; requests: unknown[] };
    let sent = 0;
    for (const send of routes[family]) {
      for (const behaviour of [...statusFaults(family), ...streamFaults(family)]) {
        fake.next(behaviour);
        const response = await send(gateway, token);
        statuses.add(response.statusCode);
        seen.push(seenBy(response));
        sent += 1;
      }
    }
    t.equal(fake.requests.length, sent, `the ${family} upstream was asked once per fault`);
  }
  const failedTasks = await failVideoTasks(gateway, token, fakes, seen);
  await gateway.app.close();

  // The canary only means something if the upstreams' messages did reach the clients, scrubbed.
  t.ok([400, 429, 502].every((status) => statuses.has(status)), `upstream failures were relayed as ${[...statuses].sort().join(', ')}`);
  t.equal(failedTasks, 5, 'every video family reported its failed task to the client');
  const responses = seen.join('\n');
  t.match(responses, /Incorrect API key provided: \[redacted\]/, 'the upstream messages reached the clients, scrubbed');
  t.ok(gateway.logLines.length > 100, 'the requests were logged at trace level');
  const logs = gateway.logLines.join('');
  const spans = collector.exports.map((entry) => entry.text).join('\n');
  t.match(spans, /"gateway\.request_id"/, 'the requests were exported as spans');

  for (const [family, key] of Object.entries(keys)) {
    const spellings = spellingsOf(key);
    t.notOk(spellings.some((spelling) => responses.includes(spelling)), `the ${family} channel's key is in no response`);
    t.notOk(spellings.some((spelling) => logs.includes(spelling)), `the ${family} channel's key is in no log line`);
    t.notOk(spellings.some((spelling) => spans.includes(spelling)), `the ${family} channel's key is in no span`);
  }
});
