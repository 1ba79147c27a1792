import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { startChatUpstream } from '../../examples/json-chat-provider/recorded-upstream.js';
import { startStreamingUpstream } from '../../examples/streaming-chat-provider/recorded-upstream.js';
import { startTaskUpstream } from '../../examples/video-task-provider/recorded-upstream.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { issueToken, postChat, sseData, waitForToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

// The examples are loaded as an operator would load a third party's plugin: by a path
// relative to the config file, here one at the repository's root.
const configFile = fileURLToPath(new URL('../../gateway.yaml', import.meta.url));

/** The gateway with one channel of an example plugin at `upstream`, priced per call and per second. */
async function exampleGateway(t: Test, channel: { plugin: string; base_url: string; models: string[]; options?: Record<string, unknown> }) {
  const config = testConfig(storageFor(t, 'memory'), {
    pricing: { 'acme-*': { input_per_mtok: 1, output_per_mtok: 2 }, 'acme-t2v': { per_second: 0.1 } },
    providers: [{ name: 'example', api_key: 'example-key', ...channel }],
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
  });
  const gateway = await buildTestApp(t, 'memory', {}, { config, configFile });
  return { gateway, token: await issueToken(t, gateway) };
}

t.test('the JSON chat example, loaded by path, answers a chat completion from its upstream and bills its usage', async (t) => {
  const upstream = await startChatUpstream();
  t.teardown(() => upstream.close());
  const { gateway, token } = await exampleGateway(t, { plugin: './examples/json-chat-provider/index.ts', base_url: upstream.url, models: ['acme-mini'] });
  const before = await waitForToken(gateway, token, () => true);

  const answer = await postChat(gateway, token, { model: 'acme-mini', messages: [{ role: 'user', content: 'Invent a holiday.' }] });
  t.equal(answer.statusCode, 200);
  t.match(answer.json(), { object: 'chat.completion', model: 'acme-mini', choices: [{ message: { content: '**Holiday Name:** Galaxy Day' } }], usage: { prompt_tokens: 16, completion_tokens: 363 } });
  t.match(upstream.requests[0], { path: '/v1/chat/completions', headers: { authorization: 'Bearer example-key' } });
  const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
  t.ok(after.used_quota > before.used_quota, 'the recorded usage is billed');

  const refused = await postChat(gateway, token, { model: 'acme-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
  t.equal(refused.statusCode, 400, 'its prepare refuses a stream before any quota is touched');
  t.match(refused.json(), { error: { message: /stream: this model answers whole completions only/, param: 'stream' } });
  t.equal(upstream.requests.length, 1, 'the refused request never reached the upstream');
});

t.test('the streaming chat example, loaded by path, relays its upstream stream to the client', async (t) => {
  const upstream = await startStreamingUpstream();
  t.teardown(() => upstream.close());
  const { gateway, token } = await exampleGateway(t, { plugin: './examples/streaming-chat-provider/index.ts', base_url: upstream.url, models: ['acme-stream'] });

  const answer = await postChat(gateway, token, { model: 'acme-stream', stream: true, messages: [{ role: 'user', content: 'Invent a holiday.' }] });
  t.equal(answer.statusCode, 200);
  t.match(answer.headers['content-type'], /text\/event-stream/);
  const events = sseData(answer.body);
  t.equal(events.at(-1), '[DONE]', 'the stream ends with [DONE]');
  const text = events.slice(0, -1).map((data) => JSON.parse(data).choices[0]?.delta?.content ?? '').join('');
  t.equal(text, '**Holiday Name', 'the recorded chunks arrive in order');
});

t.test('the video task example, loaded by path, runs a task from submission to success and charges it once', async (t) => {
  const upstream = await startTaskUpstream();
  t.teardown(() => upstream.close());
  const { gateway, token } = await exampleGateway(t, { plugin: './examples/video-task-provider/index.ts', base_url: upstream.url, models: ['acme-t2v'] });
  const before = await waitForToken(gateway, token, () => true);

  const headers = { ...token.bearer, 'content-type': 'application/json' };
  const submitted = await gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers, payload: { model: 'acme-t2v', prompt: 'a kitten running under the moon', seconds: 10 } });
  t.equal(submitted.statusCode, 200);
  const id = submitted.json().task_id as string;
  const done = await gateway.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer });
  t.match(done.json(), { task_id: id, status: 'succeeded', url: /^https:\/\/prod-ss-vidu\./ });
  const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
  t.equal(after.used_quota - before.used_quota, 10 * 50_000, 'ten seconds at 0.10 USD a second');

  const refused = await gateway.app.inject({ method: 'POST', url: '/v1/video/generations', headers, payload: { model: 'acme-t2v', prompt: 'a kitten', seconds: 7 } });
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), { error: { message: /seconds: this model makes videos of 5 or 10 seconds/ } });
});
