import type { LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import { SseSplitter } from '../../core/streaming/sse-splitter.js';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { pcmTone, startFakeOpenAiUpstream, wavFile, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { FaultBehaviour } from './fault-behaviours.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { gxChannel, familyPricing, gxUpstreamKey, scenarioGateway, sseData, streamedText, type IssuedToken } from '../helpers/gateway-scenario.js';

/**
 * The limits of every first channel: a stall longer than these is a fault, a shorter one is
 * only slow. The slow first byte the suite waits for is 60 ms; a second leaves room for a
 * loaded machine's event loop lag, which with 300 ms once turned that wait into a failover.
 */
export const firstChannelTimeouts = { first_byte_ms: 1000, idle_ms: 1000 };
/** The largest upstream SSE event the scene's gateway accepts. */
export const maxEventBytes = 16 * 1024;

const openAiKey = 'openai-upstream-key';

/** A gateway with two channels for every route family: a first one (higher priority, short timeouts) and a second one. */
export interface FaultScene {
  gateway: TestApp;
  gx: { first: FakeGxUpstream; second: FakeGxUpstream };
  openAi: { first: FakeOpenAiUpstream; second: FakeOpenAiUpstream };
}

const openAiChannel = (name: string, plugin: string, baseUrl: string, models: string[], fields: Record<string, unknown>) => ({
  name,
  plugin,
  base_url: baseUrl,
  api_key: openAiKey,
  models,
  groups: ['default'],
  ...fields,
});

/** Starts the four fakes and the gateway in front of them, on the memory store. */
export async function startFaultScene(t: Test): Promise<FaultScene> {
  const gx = { first: await startFakeGxUpstream({ apiKey: gxUpstreamKey }), second: await startFakeGxUpstream({ apiKey: gxUpstreamKey }) };
  const openAi = { first: await startFakeOpenAiUpstream({ apiKey: openAiKey }), second: await startFakeOpenAiUpstream({ apiKey: openAiKey }) };
  t.teardown(() => Promise.all([gx.first.close(), gx.second.close(), openAi.first.close(), openAi.second.close()]));
  const first = { priority: 10, timeouts: firstChannelTimeouts };
  const providers = [];
  for (const [role, fields, gxFake, openAiFake] of [
    ['first', first, gx.first, openAi.first],
    ['second', {}, gx.second, openAi.second],
  ] as const) {
    providers.push(
      gxChannel(`gx-${role}`, gxFake.url, fields),
      openAiChannel(`gp-${role}`, 'gp', openAiFake.url, ['gp-5.4'], { model_map: { 'gp-5.4': 'gpt-5.4' }, ...fields }),
      openAiChannel(`gi-${role}`, 'gi', openAiFake.url, ['gi-2'], { model_map: { 'gi-2': 'gpt-image-2' }, ...fields }),
      openAiChannel(`audio-${role}`, 'audio', openAiFake.url, ['tts-1', 'stt-1'], { model_map: { 'stt-1': 'whisper-1' }, ...fields }),
      openAiChannel(`sr-${role}`, 'sr', openAiFake.url, ['sr-2'], { model_map: { 'sr-2': 'sora-2' }, ...fields }),
    );
  }
  const gateway = await scenarioGateway(t, {
    pricing: familyPricing,
    routing: { max_attempts: 3, circuit_breaker: { failure_threshold: 1000, cooldown_ms: 1000 } },
    streaming: { max_event_bytes: maxEventBytes, keepalive_ms: 60_000 },
    // Video tasks are left running: their quota stays held, which is what the suite checks.
    tasks: { min_poll_interval_ms: 600_000, background_poll_ms: 3_600_000 },
    providers,
  });
  return { gateway, gx, openAi };
}

/** The error shapes of spec §8 a failed request may answer in. */
export type Dialect = 'openai' | 'native' | 'images';

/** How an upstream writes a stream, for the faults that need raw events. */
export type StreamFraming = 'gx' | 'openai-chat' | 'responses';

/** One client-facing route, as the fault suite drives it. */
export interface RouteUnderFault {
  name: string;
  /** Which pair of fakes serves it. */
  upstream: 'gx' | 'openAi';
  /** The channel name prefix (`gx`, `gp`, `gi`, `audio`). */
  channels: string;
  dialect: Dialect;
  /** Set for SSE routes: how the upstream frames its events. */
  stream?: StreamFraming;
  /** The route hands the upstream's bytes on unread (speech). */
  bytes?: boolean;
  /** The route starts a task whose quota is held until it finishes (video): billing is checked on the hold. */
  held?: boolean;
  /**
   * Once the upstream answered 2xx the work may have started (a video): a body that cannot be
   * read is a clean error, never a retry that would start it twice.
   */
  committedAtHeaders?: boolean;
  /** For stream routes: the number of upstream chunks after which content has reached the client. */
  chunksWithContent?: number;
  /** For stream routes: the upstream reports usage only in its last event, so a broken stream is billed on the gateway's estimate. */
  usageAtEnd?: boolean;
  send(gateway: TestApp, token: IssuedToken): Promise<LightMyRequestResponse>;
  /** What a whole answer looks like, the same from either channel; throws on a broken one. */
  summary(response: LightMyRequestResponse): string;
  /** For stream routes: the in-band error the stream ended with, or undefined when it ended cleanly. */
  inBandError?(response: LightMyRequestResponse): Record<string, unknown> | undefined;
}

const prompt = 'one two three four five six seven eight';

/** POST `url` with a JSON body as the token. */
export function postJson(gateway: TestApp, token: IssuedToken, url: string, body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

function responsesEvents(payload: string): Array<{ event: string | undefined; data: Record<string, any> }> {
  const splitter = new SseSplitter();
  return [...splitter.push(Buffer.from(payload)), ...splitter.end()].map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) }));
}

function openAiStreamError(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  const last = sseData(response.payload).at(-1);
  if (last === undefined || last === '[DONE]') return undefined;
  const parsed = JSON.parse(last) as Record<string, unknown>;
  return 'error' in parsed ? parsed : undefined;
}

function nativeStreamError(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  const last = sseData(response.payload).at(-1);
  if (last === undefined) return undefined;
  const parsed = JSON.parse(last) as Record<string, unknown>;
  return 'error' in parsed ? parsed : undefined;
}

const wholeChatStream = (response: LightMyRequestResponse) => {
  if (sseData(response.payload).at(-1) !== '[DONE]') throw new Error('the stream did not end with [DONE]');
  return streamedText(response.payload);
};

const transcriptionForm = (() => {
  let cached: { body: Buffer; contentType: string } | undefined;
  return async () => {
    if (cached !== undefined) return cached;
    const data = new FormData();
    data.append('model', 'stt-1');
    data.append('file', new Blob([wavFile(pcmTone(2))], { type: 'audio/wav' }), 'clip.wav');
    const request = new Request('http://client.invalid/', { method: 'POST', body: data });
    cached = { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
    return cached;
  };
})();

/** Every model route the faults apply to: chat (gx and gp), Responses, native, images, speech and transcription. */
export const routesUnderFault: RouteUnderFault[] = [
  {
    name: 'gx chat',
    upstream: 'gx',
    channels: 'gx',
    dialect: 'openai',
    send: (gateway, token) => postJson(gateway, token, '/v1/chat/completions', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: prompt }] }),
    summary: (response) => String(response.json().choices[0].message.content),
  },
  {
    name: 'gx chat stream',
    upstream: 'gx',
    channels: 'gx',
    dialect: 'openai',
    stream: 'gx',
    chunksWithContent: 2,
    send: (gateway, token) => postJson(gateway, token, '/v1/chat/completions', { model: 'gx-2.5-pro', stream: true, messages: [{ role: 'user', content: prompt }] }),
    summary: wholeChatStream,
    inBandError: openAiStreamError,
  },
  {
    name: 'gp chat',
    upstream: 'openAi',
    channels: 'gp',
    dialect: 'openai',
    send: (gateway, token) => postJson(gateway, token, '/v1/chat/completions', { model: 'gp-5.4', messages: [{ role: 'user', content: prompt }] }),
    summary: (response) => String(response.json().choices[0].message.content),
  },
  {
    name: 'gp chat stream',
    upstream: 'openAi',
    channels: 'gp',
    dialect: 'openai',
    stream: 'openai-chat',
    chunksWithContent: 3,
    usageAtEnd: true,
    send: (gateway, token) => postJson(gateway, token, '/v1/chat/completions', { model: 'gp-5.4', stream: true, messages: [{ role: 'user', content: prompt }] }),
    summary: wholeChatStream,
    inBandError: openAiStreamError,
  },
  {
    name: 'responses',
    upstream: 'openAi',
    channels: 'gp',
    dialect: 'openai',
    send: (gateway, token) => postJson(gateway, token, '/v1/responses', { model: 'gp-5.4', input: prompt }),
    summary: (response) => {
      const body = response.json();
      if (body.status !== 'completed') throw new Error(`the response is ${body.status}`);
      return JSON.stringify(body.output.map((item: { content?: Array<{ text?: string }> }) => item.content?.map((part) => part.text)));
    },
  },
  {
    name: 'responses stream',
    upstream: 'openAi',
    channels: 'gp',
    dialect: 'openai',
    stream: 'responses',
    chunksWithContent: 4,
    usageAtEnd: true,
    send: (gateway, token) => postJson(gateway, token, '/v1/responses', { model: 'gp-5.4', input: prompt, stream: true }),
    summary: (response) => {
      const events = responsesEvents(response.payload);
      if (events.at(-1)?.event !== 'response.completed') throw new Error(`the stream ended with ${events.at(-1)?.event}`);
      if (events.some((event, index) => event.data.sequence_number !== index)) throw new Error('the events are not numbered from 0');
      return events.filter((event) => event.event === 'response.output_text.delta').map((event) => event.data.delta).join('');
    },
    inBandError: (response) => {
      const last = responsesEvents(response.payload).at(-1);
      return last?.event === 'error' ? last.data : undefined;
    },
  },
  {
    name: 'native generateContent',
    upstream: 'gx',
    channels: 'gx',
    dialect: 'native',
    send: (gateway, token) => postJson(gateway, token, '/v1beta/models/gx-2.5-pro:generateContent', { contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
    summary: (response) => String(response.json().candidates[0].content.parts[0].text),
  },
  {
    name: 'native streamGenerateContent',
    upstream: 'gx',
    channels: 'gx',
    dialect: 'native',
    stream: 'gx',
    chunksWithContent: 2,
    send: (gateway, token) =>
      postJson(gateway, token, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
    summary: (response) => {
      const events = sseData(response.payload).map((data) => JSON.parse(data));
      if (events.at(-1)?.candidates?.[0]?.finishReason !== 'STOP') throw new Error('the native stream did not finish');
      return events.map((event) => event.candidates[0].content.parts[0].text).join('');
    },
    inBandError: nativeStreamError,
  },
  {
    name: 'images generations',
    upstream: 'openAi',
    channels: 'gi',
    dialect: 'images',
    send: (gateway, token) => postJson(gateway, token, '/v1/images/generations', { model: 'gi-2', prompt: 'a lighthouse at dusk', quality: 'low' }),
    summary: (response) => {
      const body = response.json();
      return `${body.data.length} image(s), ${typeof body.data[0].b64_json}`;
    },
  },
  {
    name: 'audio speech',
    upstream: 'openAi',
    channels: 'audio',
    dialect: 'openai',
    bytes: true,
    send: (gateway, token) => postJson(gateway, token, '/v1/audio/speech', { model: 'tts-1', input: prompt, voice: 'alloy' }),
    summary: (response) => {
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
      return `${response.headers['content-type']} ${response.rawPayload.length} bytes`;
    },
  },
  {
    name: 'video submit',
    upstream: 'openAi',
    channels: 'sr',
    dialect: 'openai',
    held: true,
    committedAtHeaders: true,
    send: (gateway, token) => postJson(gateway, token, '/v1/video/generations', { model: 'sr-2', prompt: 'a lighthouse at dusk', seconds: 4 }),
    summary: (response) => {
      const body = response.json();
      if (typeof body.task_id !== 'string') throw new Error('no task id');
      return `${body.status} ${body.format}`;
    },
  },
  {
    name: 'audio transcriptions',
    upstream: 'openAi',
    channels: 'audio',
    dialect: 'openai',
    send: async (gateway, token) => {
      const form = await transcriptionForm();
      return gateway.app.inject({ method: 'POST', url: '/v1/audio/transcriptions', headers: { ...token.bearer, 'content-type': form.contentType }, payload: form.body });
    },
    summary: (response) => String(response.json().text),
  },
];

/** The next-request hook of the first or second fake of a route. */
export function fakeOf(scene: FaultScene, route: RouteUnderFault, role: 'first' | 'second'): { next(behaviour: FaultBehaviour): void; requests: unknown[] } {
  return route.upstream === 'gx' ? scene.gx[role] : scene.openAi[role];
}
