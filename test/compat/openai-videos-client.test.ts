import OpenAI, { BadRequestError, toFile } from 'openai';
import t from 'tap';
import { startFakeOpenAiUpstream, videoBehaviours } from '../fakes/openai/fake-openai-upstream.js';
import { recordedVideoForm } from '../fakes/openai/videos-request.js';
import { startCompatGateway } from './compat-gateway.js';

const upstreamKey = 'sr-compat-upstream-key';
const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const gateway = await startCompatGateway(t, {
  providers: [{ name: 'sr-main', plugin: 'sr', base_url: upstream.url, api_key: upstreamKey, models: ['sr-2'], model_map: { 'sr-2': 'sora-2' } }],
  pricing: { 'sr-2': { per_second: 0.1 } },
  // Every retrieve asks the upstream, so the fake's lifecycle moves on each one.
  config: { tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 } },
});

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 4)]);

/** Retrieves the video until it is finished, as an application polls (without the wait). */
async function untilFinished(id: string): Promise<{ video: OpenAI.Videos.Video; seen: string[] }> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const video = await client.videos.retrieve(id);
    seen.push(video.status);
    if (video.status === 'completed' || video.status === 'failed') return { video, seen };
  }
  throw new Error(`video ${id} did not finish`);
}

t.test('videos.create returns a queued video, and videos.retrieve follows it to completed', async (t) => {
  const video = await client.videos.create({ model: 'sr-2', prompt: 'a paper boat on a rainy street', seconds: '8', size: '1280x720' });
  t.match(video, { id: /^video_/, object: 'video', model: 'sr-2', status: 'queued', progress: 0, seconds: '8', size: '1280x720', error: null });
  t.strictSame(upstream.requests.at(-1)!.json, { model: 'sora-2', prompt: 'a paper boat on a rainy street', seconds: '8', size: '1280x720' });
  const { video: done, seen } = await untilFinished(video.id);
  t.strictSame(seen, ['in_progress', 'completed']);
  t.match(done, { id: video.id, status: 'completed', progress: 100, seconds: '8', size: '1280x720', error: null });
  t.type(done.completed_at, 'number');
  t.type(done.expires_at, 'number');
});

t.test('a reference image uploaded with toFile reaches the upstream as input_reference', async (t) => {
  const video = await client.videos.create({ model: 'sr-2', prompt: 'animate this', input_reference: await toFile(png, 'first.png', { type: 'image/png' }) });
  t.match(video, { status: 'queued', seconds: '4', size: '720x1280' });
  const file = (await recordedVideoForm(upstream.requests.at(-1)!)).get('input_reference') as File;
  t.equal(file.type, 'image/png');
  t.strictSame(Buffer.from(await file.arrayBuffer()), png);
});

t.test('the JSON shape input_reference {image_url} works through the client’s form encoding', async (t) => {
  const video = await client.videos.create({ model: 'sr-2', prompt: 'animate this', input_reference: { image_url: `data:image/png;base64,${png.toString('base64')}` } });
  t.equal(video.status, 'queued');
  const file = (await recordedVideoForm(upstream.requests.at(-1)!)).get('input_reference') as File;
  t.strictSame(Buffer.from(await file.arrayBuffer()), png);
});

t.test('a moderation failure ends as failed with the upstream’s code and message', async (t) => {
  upstream.next(videoBehaviours.moderationBlocked('This content may violate our guardrails.'));
  const video = await client.videos.create({ model: 'sr-2', prompt: 'something the upstream refuses' });
  const { video: failed } = await untilFinished(video.id);
  t.match(failed, { status: 'failed', error: { code: 'moderation_blocked', message: 'This content may violate our guardrails.' } });
});

t.test('a size sr-2 does not make is a BadRequestError naming size', async (t) => {
  const error = await client.videos.create({ model: 'sr-2', prompt: 'x', size: '1792x1024' }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.equal((error as BadRequestError).param, 'size');
  t.match((error as BadRequestError).message, /720x1280 \(portrait\) or 1280x720 \(landscape\)/);
});
