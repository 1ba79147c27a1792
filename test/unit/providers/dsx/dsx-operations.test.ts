import t from 'tap';
import type { BytesResult, TaskAccepted, TaskProgress } from '../../../../core/index.js';
import dsxPlugin from '../../../../providers/dsx/index.js';
import { prepareDsxSubmission } from '../../../../providers/dsx/dsx-submission.js';
import { dsxCall, dsxFixture, rejected, stubHost, thrown, upstreamAnswer } from './fixtures/read-dsx-fixtures.js';

const recordedTask = dsxFixture('ark-seedance-task-succeeded.json');

async function provider(...answers: Parameters<typeof stubHost>) {
  const { host, sent, guarded } = stubHost(...answers);
  const created = await dsxPlugin.create(dsxPlugin.options.parse({}), host);
  return { operations: created.operations as Record<string, (call: unknown) => Promise<unknown>>, sent, guarded };
}

/** A `video.submit` call with the request prepared, as core makes it. */
const submitCall = (request: Record<string, unknown>) => dsxCall(prepareDsxSubmission(request as never));

const handle = 'cgt-20250331175019-abcde';

t.test('the plugin is named dsx, with path_prefix /api/v3 by default', async (t) => {
  t.equal(dsxPlugin.name, 'dsx');
  t.strictSame(dsxPlugin.options.parse({}), { path_prefix: '/api/v3' });
  t.throws(() => dsxPlugin.options.parse({ path_prefix: 'api/v3/' }));
  t.throws(() => dsxPlugin.options.parse({ region: 'x' }), 'unknown options are refused');
});

t.test('submit posts the task with the channel key and answers the handle, usage and details', async (t) => {
  const { operations, sent } = await provider(upstreamAnswer(200, { id: 'cgt-20250331175019-abcde' }));
  const accepted = (await operations['video.submit']!(submitCall({ model: 'dsx-1-5-pro-251215', prompt: 'a cat --frames 121 --rs 480p' }))) as TaskAccepted;
  t.equal(sent.length, 1);
  t.match(sent[0], { method: 'POST', url: 'https://ark.example/api/v3/contents/generations/tasks', headers: { authorization: 'Bearer ark-key', 'content-type': 'application/json' } });
  t.strictSame(JSON.parse(String(sent[0]!.body)), { model: 'seedance-1-5-pro-251215', content: [{ type: 'text', text: 'a cat --frames 121 --rs 480p' }], generate_audio: true });
  t.equal(accepted.handle, 'cgt-20250331175019-abcde', 'the handle is the upstream task id');
  t.match(accepted, { kind: 'task', usage: { seconds: 121 / 24, resolution: '480p', source: 'estimated' }, details: { seconds: 5.042, resolution: '480p', frames: 121 } });
  t.notOk('succeededStatus' in accepted, '1.x tasks finish as succeeded');
});

t.test('a 2.0 submission says its tasks finish as completed', async (t) => {
  const { operations } = await provider(upstreamAnswer(200, { id: 'cgt-1' }));
  const accepted = (await operations['video.submit']!({ ...submitCall({ model: 'sdx-2-0', prompt: 'a', aspect_ratio: '9:16' }), model: 'sdx-2-0' })) as TaskAccepted;
  t.match(accepted, { succeededStatus: 'completed', details: { seconds: 5, resolution: '720p', aspect_ratio: '9:16' } });
});

t.test('prepare refuses invalid input before any upstream call', async (t) => {
  const { sent } = await provider(upstreamAnswer(200, { id: 'x' }));
  t.equal(dsxPlugin.prepare?.['video.submit'], prepareDsxSubmission, 'prepareDsxSubmission is the plugin’s prepare');
  const error = thrown(() => prepareDsxSubmission({ model: 'dsx-1-5-pro-251215', prompt: 'a --frames 30' } as never));
  t.match(error, { statusCode: 400, param: 'prompt --frames' });
  t.equal(sent.length, 0);
});

t.test('a refused create is a 502 with the upstream code and param, not retried', async (t) => {
  const body = { error: { code: 'InvalidParameter', message: 'The parameter `content[1].image_url.url` specified in the request is not valid. Request id: 0217x', param: 'content[1].image_url.url', type: 'BadRequest' } };
  const { operations } = await provider(upstreamAnswer(400, body));
  const error = await rejected(operations['video.submit']!(submitCall({ model: 'dsx-1-5-pro-251215', prompt: 'a' })));
  t.match(error, { statusCode: 502, code: 'InvalidParameter', param: 'content[1].image_url.url', retryable: false, message: /is not valid/ });
});

t.test('the channel’s own trouble at create is retryable on another channel', async (t) => {
  for (const [status, code] of [[500, 'upstream_error'], [429, 'upstream_rate_limited'], [401, 'upstream_auth_failed'], [404, 'model_not_found']] as const) {
    const { operations } = await provider(upstreamAnswer(status, { error: { code: 'X', message: 'y' } }));
    const error = await rejected(operations['video.submit']!(submitCall({ model: 'dsx-1-5-pro-251215', prompt: 'a' })));
    t.match(error, { code, retryable: true }, String(status));
  }
});

t.test('a create answered without an id is a 502 that is not retried', async (t) => {
  for (const answer of [upstreamAnswer(200, {}), upstreamAnswer(200, 'not json')]) {
    const { operations } = await provider(answer);
    t.match(await rejected(operations['video.submit']!(submitCall({ model: 'dsx-1-5-pro-251215', prompt: 'a' }))), { statusCode: 502, code: 'upstream_invalid_response', retryable: false });
  }
});

t.test('status reads the task at its id and maps it', async (t) => {
  const { operations, sent } = await provider(upstreamAnswer(200, recordedTask));
  const progress = (await operations['video.status']!(dsxCall({ handle, model: 'dsx-1-5-pro-251215' }))) as TaskProgress;
  t.match(sent[0], { method: 'GET', url: 'https://ark.example/api/v3/contents/generations/tasks/cgt-20250331175019-abcde', headers: { authorization: 'Bearer ark-key' } });
  t.match(progress, { status: 'succeeded', url: recordedTask.content.video_url, usage: { outputTokens: 108900, seconds: 5, resolution: '720p' } });
});

t.test('an upstream that lost the task answers 404, which stays a 404; other failures say why', async (t) => {
  const lost = await provider(upstreamAnswer(404, { error: { code: 'ResourceNotFound', message: 'The specified task is not found.' } }));
  t.match(await rejected(lost.operations['video.status']!(dsxCall({ handle, model: 'm' }))), { statusCode: 404 });
  const broken = await provider(upstreamAnswer(503, 'busy'));
  t.match(await rejected(broken.operations['video.status']!(dsxCall({ handle, model: 'm' }))), { statusCode: 502, retryable: true });
  const garbled = await provider(upstreamAnswer(200, { no: 'status' }));
  t.match(await rejected(garbled.operations['video.status']!(dsxCall({ handle, model: 'm' }))), { statusCode: 502, code: 'upstream_invalid_response' });
});

t.test('content downloads the video from its pre-signed URL through the media guard, without the channel key', async (t) => {
  const mp4 = upstreamAnswer(200, 'mp4 bytes', { 'content-type': 'video/mp4' });
  const { operations, sent, guarded } = await provider(upstreamAnswer(200, recordedTask), mp4);
  const result = (await operations['video.content']!(dsxCall({ handle, model: 'm' }))) as BytesResult;
  t.equal(sent[1]!.url, recordedTask.content.video_url);
  t.strictSame(guarded, [recordedTask.content.video_url], 'the upstream’s URL goes through the guard, not host.http');
  t.notOk(sent[1]!.headers?.authorization, 'the storage host never sees the key');
  t.match(result, { kind: 'bytes', contentType: 'video/mp4' });
  t.equal(await result.body.text(), 'mp4 bytes');
  const expired = await provider(upstreamAnswer(200, recordedTask), upstreamAnswer(403, 'AccessDenied'));
  t.match(await rejected(expired.operations['video.content']!(dsxCall({ handle, model: 'm' }))), { statusCode: 502, message: /expired/ });
  const running = await provider(upstreamAnswer(200, { ...recordedTask, status: 'running', content: undefined }));
  t.match(await rejected(running.operations['video.content']!(dsxCall({ handle, model: 'm' }))), { statusCode: 409 });
});

t.test('moderation answers the record built from the task', async (t) => {
  const failed = { ...recordedTask, status: 'failed', content: undefined, error: { code: 'OutputVideoSensitiveContentDetected', message: 'flagged' } };
  const { operations } = await provider(upstreamAnswer(200, failed));
  t.match(await operations['video.moderation']!(dsxCall({ handle, model: 'm' })), { kind: 'json', body: { result: 'blocked', flagged: true, target: 'output_video' } });
});
