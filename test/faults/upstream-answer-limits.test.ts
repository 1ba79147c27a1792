import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { familyPricing, gxChannel, issueToken, lastAttempts, openAiChannelsOn, scenarioGateway, startGx, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { postJson } from './fault-scene.js';

// A broken or hostile upstream answering a non-stream request with a body of any size: the
// gateway holds at most the channel's max_response_mb of it, drops the connection there,
// answers 502 upstream_response_too_large (another channel may still answer) and refunds
// the hold. Byte bodies relayed to the client are not held, so they pass whatever their size.

const limitMb = 1;
const limitBytes = limitMb * 1024 * 1024;
const startingQuota = 5_000_000;
/** What the upstream tries to send: 32 times the limit, so the kernel's socket buffers cannot hide a gateway that read it all. */
const hugeBytes = 32 * limitBytes;
const filler = 'x'.repeat(64 * 1024);
const openAiKey = 'openai-upstream-key';

/** A body of about {@link hugeBytes}: `head`, the filler over and over (one shared string), `tail`. */
function hugeBody(head: string, tail: string): Array<string> {
  return [head, ...Array.from({ length: hugeBytes / filler.length }, () => filler), tail];
}

const byteLength = (pieces: Array<string | Uint8Array>) => pieces.reduce((sum, piece) => sum + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength), 0);

// Each a real answer of its route's vendor, with one field grown past any sane size.
const hugeGxAnswer = hugeBody('{\n  "candidates": [\n    {\n      "content": {\n        "parts": [\n          {\n            "text": "', '"\n          }\n        ],\n        "role": "model"\n      },\n      "finishReason": "STOP",\n      "index": 0\n    }\n  ]\n}\n');
const hugeChatCompletion = hugeBody(
  '{\n  "id": "chatcmpl-huge",\n  "object": "chat.completion",\n  "created": 1770000000,\n  "model": "gpt-5.4",\n  "choices": [\n    {\n      "index": 0,\n      "message": {\n        "role": "assistant",\n        "content": "',
  '"\n      },\n      "finish_reason": "stop"\n    }\n  ]\n}',
);
const hugeImagesAnswer = hugeBody('{\n  "created": 1770000000,\n  "data": [\n    {\n      "b64_json": "', '"\n    }\n  ]\n}');
const hugeVideoObject = hugeBody('{\n  "id": "video_huge",\n  "object": "video",\n  "model": "sora-2",\n  "status": "in_progress",\n  "progress": 10,\n  "prompt": "', '"\n}');

/** Without a Content-Length, as a chunked answer; or declaring its (oversized) length up front. */
const framings = [
  { name: 'without a Content-Length', headers: (_pieces: string[]): Record<string, string> => ({}) },
  { name: 'with a declared Content-Length over the limit', headers: (pieces: string[]): Record<string, string> => ({ 'content-length': String(byteLength(pieces)) }) },
];

interface Scene {
  gateway: TestApp;
  gx: FakeGxUpstream;
  gxSpare: FakeGxUpstream;
  openAi: FakeOpenAiUpstream;
}

async function startScene(t: Test): Promise<Scene> {
  const gx = await startGx(t);
  const gxSpare = await startGx(t);
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const onOpenAi = openAiChannelsOn(openAi.url, openAiKey);
  const limited = { max_response_mb: limitMb };
  const gateway = await scenarioGateway(t, {
    pricing: familyPricing,
    routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    providers: [
      // gx-3-pro has a spare channel to fail over to; gx-2.5-pro has none.
      gxChannel('gx-limited', gx.url, { models: ['gx-2.5-pro', 'gx-3-pro'], priority: 10, ...limited }),
      gxChannel('gx-spare', gxSpare.url, { models: ['gx-3-pro'] }),
      { ...onOpenAi('gp-limited', 'gp', ['gp-5.4'], { 'gp-5.4': 'gpt-5.4' }), ...limited },
      { ...onOpenAi('gi-limited', 'gi', ['gi-2'], { 'gi-2': 'gpt-image-2' }), ...limited },
      { ...onOpenAi('sr-limited', 'sr', ['sr-2'], { 'sr-2': 'sora-2' }), ...limited },
      { ...onOpenAi('audio-limited', 'audio', ['tts-1']), ...limited },
    ],
  });
  return { gateway, gx, gxSpare, openAi };
}

const get = (gateway: TestApp, token: IssuedToken, url: string) => gateway.app.inject({ method: 'GET', url, headers: token.bearer });

/** How many bytes of its last answer's body the fake managed to hand to the socket. */
const writtenByLastAnswer = (fake: { requests: Array<{ bodyBytesWritten: number }> }): number => fake.requests.at(-1)!.bodyBytesWritten;

async function assertRefundedInFull(t: Test, gateway: TestApp, token: IssuedToken): Promise<void> {
  t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota }, 'the hold is refunded: the token paid nothing');
}

function assertDroppedEarly(t: Test, written: number): void {
  t.ok(written < hugeBytes / 4, `the upstream's connection was dropped early: it wrote ${written} of ${hugeBytes} bytes`);
}

t.test('a non-stream upstream answer past max_response_mb', async (t) => {
  const scene = await startScene(t);
  const { gateway, gx, gxSpare, openAi } = scene;

  const chatRoutes = [
    { name: 'gx chat', fake: gx, pieces: hugeGxAnswer, model: 'gx-2.5-pro' },
    { name: 'gp chat', fake: openAi, pieces: hugeChatCompletion, model: 'gp-5.4' },
  ];
  for (const framing of framings) {
    for (const route of chatRoutes) {
      t.test(`${route.name}, ${framing.name}: 502 upstream_response_too_large, the connection dropped, nothing billed`, async (t) => {
        const token = await issueToken(t, gateway);
        route.fake.next({ bodyPieces: route.pieces, headers: framing.headers(route.pieces) });
        const response = await postJson(gateway, token, '/v1/chat/completions', { model: route.model, messages: [{ role: 'user', content: 'hello there' }] });
        t.equal(response.statusCode, 502);
        t.match(response.json(), { error: { code: 'upstream_response_too_large', type: 'server_error', message: /max_response_mb/ } }, 'in the OpenAI shape, naming the limit');
        assertDroppedEarly(t, writtenByLastAnswer(route.fake));
        await assertRefundedInFull(t, gateway, token);
        const after = await postJson(gateway, token, '/v1/chat/completions', { model: route.model, messages: [{ role: 'user', content: 'hello again' }] });
        t.equal(after.statusCode, 200, 'the channel answers the next request');
      });
    }

    t.test(`images generations, ${framing.name}: the images table's 503 bad_response, the connection dropped, nothing billed`, async (t) => {
      const token = await issueToken(t, gateway);
      openAi.next({ bodyPieces: hugeImagesAnswer, headers: framing.headers(hugeImagesAnswer) });
      const response = await postJson(gateway, token, '/v1/images/generations', { model: 'gi-2', prompt: 'a lighthouse at dusk', quality: 'low' });
      t.equal(response.statusCode, 503);
      t.match(response.json(), { error: { code: 'bad_response', message: /max_response_mb/ } });
      assertDroppedEarly(t, writtenByLastAnswer(openAi));
      await assertRefundedInFull(t, gateway, token);
    });
  }

  t.test('another channel serving the model answers instead, and the token pays one answer', async (t) => {
    const token = await issueToken(t, gateway);
    gx.next({ bodyPieces: hugeGxAnswer });
    const response = await postJson(gateway, token, '/v1/chat/completions', { model: 'gx-3-pro', messages: [{ role: 'user', content: 'hello there' }] });
    t.equal(response.statusCode, 200);
    t.same(lastAttempts(gateway), ['gx-limited:failed', 'gx-spare:success'], 'the limited channel failed (a mark against its circuit), the spare answered');
    t.equal(gxSpare.requests.length, 1);
    const stored = await storedToken(gateway, token);
    t.ok(stored.used_quota > 0, `billed ${stored.used_quota} units for the spare's answer`);
    t.equal(stored.used_quota + stored.remain_quota, startingQuota, 'and nothing for the failed attempt');
  });

  t.test('a task poll answered past the limit leaves the task as it was and its hold in place', async (t) => {
    const token = await issueToken(t, gateway);
    const submitted = await postJson(gateway, token, '/v1/video/generations', { model: 'sr-2', prompt: 'a lighthouse at dusk', seconds: 4 });
    t.equal(submitted.statusCode, 200);
    const task = submitted.json();
    const held = await storedToken(gateway, token);
    t.ok(held.remain_quota < startingQuota, 'the submit holds quota');
    openAi.next({ bodyPieces: hugeVideoObject });
    const polled = await get(gateway, token, `/v1/video/generations/${task.task_id}`);
    t.equal(polled.statusCode, 200, 'the poll answers with what the gateway knows');
    t.equal(polled.json().status, 'queued', 'the task shows what it was before the poll');
    t.equal(openAi.requests.at(-1)!.method, 'GET');
    assertDroppedEarly(t, writtenByLastAnswer(openAi));
    t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: held.remain_quota }, 'the hold stays until the task really ends');
  });
});

t.test('byte bodies relayed to the client pass through whatever max_response_mb says', async (t) => {
  const { gateway, openAi } = await startScene(t);
  const audio = Buffer.alloc(4 * limitBytes, 0xff);
  const audioPieces = Array.from({ length: 64 }, (_, index) => audio.subarray(index * (audio.length / 64), (index + 1) * (audio.length / 64)));

  t.test('speech audio four times the limit reaches the client whole', async (t) => {
    const token = await issueToken(t, gateway);
    openAi.next({ bodyPieces: audioPieces });
    const response = await postJson(gateway, token, '/v1/audio/speech', { model: 'tts-1', input: 'one two three', voice: 'alloy' });
    t.equal(response.statusCode, 200);
    t.equal(response.rawPayload.length, audio.length, 'every byte of the audio');
    t.ok(response.rawPayload.equals(audio), 'as the upstream sent it');
  });

  t.test("a finished video's content four times the limit reaches the client whole", async (t) => {
    const token = await issueToken(t, gateway);
    const submitted = await postJson(gateway, token, '/v1/video/generations', { model: 'sr-2', prompt: 'a lighthouse at dusk', seconds: 4 });
    const id = submitted.json().task_id as string;
    let status = '';
    for (let poll = 0; poll < 5 && status !== 'succeeded'; poll += 1) status = (await get(gateway, token, `/v1/video/generations/${id}`)).json().status;
    t.equal(status, 'succeeded', 'the video is finished');
    openAi.next({ bodyPieces: audioPieces });
    const content = await get(gateway, token, `/v1/video/generations/${id}/content`);
    t.equal(content.statusCode, 200);
    t.equal(content.rawPayload.length, audio.length, 'every byte of the video');
  });
});
