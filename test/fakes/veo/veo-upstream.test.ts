import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { rawRequest, type RawAnswer } from '../../helpers/raw-request.js';
import { predictLongRunningResponseType, sampleMp4, startFakeVeoUpstream, type FakeVeoUpstream } from './fake-veo-upstream.js';

const apiKey = 'veo-unit-key';
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/vo/${name}`, import.meta.url), 'utf8'));
const recorded = fixture('gemini-veo-operation.json');
const quotaError = fixture('gemini-error-429.json');

const send = rawRequest;

const keyed = { 'x-gx-api-key': apiKey };
const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));
const submitBody = (parameters: Record<string, unknown> = {}, instance: Record<string, unknown> = {}) => ({
  instances: [{ prompt: 'A cinematic drone shot over mountains', ...instance }],
  parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', sampleCount: 1, ...parameters },
});
const submit = (fake: FakeVeoUpstream, body: unknown = submitBody(), headers: Record<string, string> = keyed, model = 'veo-3.1-fast-generate-preview') =>
  send(`${fake.url}/v1beta/models/${model}:predictLongRunning`, 'POST', body, { 'content-type': 'application/json', ...headers });
const poll = (fake: FakeVeoUpstream, name: string, headers: Record<string, string> = keyed) => send(`${fake.url}/v1beta/${name}`, 'GET', undefined, headers);

async function startFake(t: Test): Promise<FakeVeoUpstream> {
  const fake = await startFakeVeoUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

/** The keys of a JSON value at every level, in order, with the types of the leaves. */
const keysDeep = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(keysDeep);
  if (typeof value !== 'object' || value === null) return typeof value;
  return Object.entries(value).map(([key, inner]) => [key, keysDeep(inner)]);
};

t.test('a submission answers the operation name in the fixture shape, as pretty JSON with the upstream headers', async (t) => {
  const fake = await startFake(t);
  const answer = await submit(fake, recorded.submit_request);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json; charset=UTF-8');
  t.equal(answer.headers.server, 'scaffolding on HTTPServer2');
  t.equal(answer.headers['content-length'], String(answer.body.length));
  const body = json(answer);
  t.equal(answer.body.toString('utf8'), `${JSON.stringify(body, null, 2)}\n`, 'two-space pretty JSON');
  t.strictSame(keysDeep(body), keysDeep(recorded.submit_response));
  t.match(body.name, /^models\/veo-3\.1-fast-generate-preview\/operations\/[a-z0-9]+$/);
  t.strictSame(fake.requests[0]!.json, recorded.submit_request, 'the request is recorded as sent');
});

t.test('each poll moves the task one step: no done key, done false, then the fixture done shape, repeated after', async (t) => {
  const fake = await startFake(t);
  const { name } = json(await submit(fake));
  const first = json(await poll(fake, name));
  t.strictSame(first, { name }, 'pending without a done key');
  const second = json(await poll(fake, name));
  t.strictSame(keysDeep(second), keysDeep(recorded.poll_pending));
  t.strictSame(second, { name, done: false });
  const done = json(await poll(fake, name));
  t.strictSame(keysDeep(done), keysDeep(recorded.poll_done));
  t.equal(done.response['@type'], predictLongRunningResponseType);
  t.equal(done.response['@type'], recorded.poll_done.response['@type']);
  t.match(done.response.generateVideoResponse.generatedSamples[0].video.uri, new RegExp(`^${fake.url}/v1beta/files/[a-z0-9]+:download\\?alt=media$`));
  t.strictSame(json(await poll(fake, name)), done, 'a finished task answers the same');
});

t.test('the download needs the key and redirects to a signed address on another origin that serves the mp4 without one', async (t) => {
  const fake = await startFake(t);
  fake.nextTask({ pendingPolls: 0 });
  const { name } = json(await submit(fake));
  const uri = json(await poll(fake, name)).response.generateVideoResponse.generatedSamples[0].video.uri as string;
  const fileId = /files\/([a-z0-9]+):download/.exec(uri)![1]!;

  t.equal((await send(uri, 'GET')).status, 403, 'no key');
  const wrong = await send(uri, 'GET', undefined, { 'x-gx-api-key': 'nope' });
  t.equal(wrong.status, 400);
  t.match(json(wrong), { error: { status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } });

  const redirect = await send(uri, 'GET', undefined, keyed);
  t.equal(redirect.status, 302);
  const location = redirect.headers.location!;
  t.ok(location.startsWith(`${fake.storageUrl}/generated-videos/${fileId}.mp4?`), 'a second origin');
  t.notOk(location.includes(apiKey), 'the signed address carries no key');
  t.equal((await send(`${uri}&key=${apiKey}`, 'GET')).status, 302, '?key= works too');

  const video = await send(location, 'GET');
  t.equal(video.status, 200);
  t.equal(video.headers['content-type'], 'video/mp4');
  t.strictSame(video.body, sampleMp4(fileId));
  t.equal(video.body.subarray(4, 8).toString('latin1'), 'ftyp');
  t.equal(fake.storageRequests.length, 1);

  const forged = await send(location.replace(/X-Goog-Signature=[0-9a-f]+/, 'X-Goog-Signature=00'), 'GET');
  t.equal(forged.status, 403);
  t.match(forged.body.toString('utf8'), /<Code>SignatureDoesNotMatch<\/Code>/);
  t.equal((await send(`${fake.storageUrl}/generated-videos/unknown.mp4`, 'GET')).status, 404);
  t.equal((await send(`${fake.url}/v1beta/files/unknown:download?alt=media`, 'GET', undefined, keyed)).status, 404);
});

t.test('a failed task ends with the operation error of the fixture', async (t) => {
  const fake = await startFake(t);
  fake.nextTask({ pendingPolls: 1, outcome: 'failed', errorCode: 3, errorMessage: 'The prompt could not be used.' });
  const { name } = json(await submit(fake));
  t.strictSame(json(await poll(fake, name)), { name });
  const failed = json(await poll(fake, name));
  t.strictSame(keysDeep(failed), keysDeep(recorded.poll_done_error));
  t.strictSame(failed, { name, done: true, error: { code: 3, message: 'The prompt could not be used.' } });
});

t.test('a filtered task lists only the filter count and reasons, as the fixture does', async (t) => {
  const fake = await startFake(t);
  fake.nextTask({ pendingPolls: 0, outcome: 'filtered', filteredReasons: ['a reason'] });
  const { name } = json(await submit(fake));
  const filtered = json(await poll(fake, name));
  t.strictSame(keysDeep(filtered), keysDeep(recorded.poll_done_filtered));
  t.strictSame(filtered.response.generateVideoResponse, { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['a reason'] });
});

t.test('sampleCount videos are made; filtering some leaves the others with the filter count', async (t) => {
  const fake = await startFake(t);
  fake.nextTask({ pendingPolls: 0 });
  const three = json(await poll(fake, json(await submit(fake, submitBody({ sampleCount: 3 }))).name));
  t.equal(three.response.generateVideoResponse.generatedSamples.length, 3);
  fake.nextTask({ pendingPolls: 0, filteredCount: 1 });
  const partial = json(await poll(fake, json(await submit(fake, submitBody({ sampleCount: 2 }))).name)).response.generateVideoResponse;
  t.equal(partial.generatedSamples.length, 1);
  t.equal(partial.raiMediaFilteredCount, 1);
  t.equal(partial.raiMediaFilteredReasons.length, 1);
});

t.test('a vanished task answers 404 NOT_FOUND from the poll that would have finished it on', async (t) => {
  const fake = await startFake(t);
  fake.nextTask({ pendingPolls: 1, outcome: 'vanished' });
  const { name } = json(await submit(fake));
  t.equal((await poll(fake, name)).status, 200);
  for (let index = 0; index < 2; index += 1) {
    const gone = await poll(fake, name);
    t.equal(gone.status, 404);
    t.strictSame(json(gone), { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
  }
  t.equal((await poll(fake, 'models/veo/operations/never')).status, 404, 'an operation that never was');
});

t.test('a missing key is 403 PERMISSION_DENIED, a wrong one 400 INVALID_ARGUMENT with API_KEY_INVALID', async (t) => {
  const fake = await startFake(t);
  const missing = await submit(fake, submitBody(), {});
  t.equal(missing.status, 403);
  t.match(json(missing), { error: { code: 403, status: 'PERMISSION_DENIED' } });
  const wrong = await submit(fake, submitBody(), { 'x-gx-api-key': 'wrong' });
  t.equal(wrong.status, 400);
  t.match(json(wrong), {
    error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] },
  });
  t.equal((await send(`${fake.url}/v1beta/models/veo:predictLongRunning?key=${apiKey}`, 'POST', submitBody())).status, 200, '?key= is accepted');
});

t.test('bodies the upstream refuses, and the Gemini API does not take, are 400 INVALID_ARGUMENT naming the field', async (t) => {
  const fake = await startFake(t);
  const refusals: Array<[string, unknown, RegExp]> = [
    ['a seed', submitBody({ seed: 1 }), /^`seed` isn't supported/],
    ['fps', submitBody({ fps: 24 }), /^`fps` isn't supported/],
    ['generateAudio', submitBody({ generateAudio: true }), /^`generateAudio` isn't supported/],
    ['a 5 second clip', submitBody({ durationSeconds: 5 }), /^`durationSeconds` must be one of 4, 6, 8/],
    ['a square video', submitBody({ aspectRatio: '1:1' }), /^`aspectRatio`/],
    ['five videos', submitBody({ sampleCount: 5 }), /^`sampleCount`/],
    ['a gcsUri image', submitBody({}, { image: { gcsUri: 'gs://bucket/a.png', mimeType: 'image/png' } }), /^`gcsUri` isn't supported/],
    ['a gif image', submitBody({}, { image: { bytesBase64Encoded: 'R0lGOD', mimeType: 'image/gif' } }), /mimeType/],
    ['a last frame alone', submitBody({}, { lastFrame: { bytesBase64Encoded: 'iVBOR', mimeType: 'image/png' } }), /^`lastFrame` needs `image`/],
    ['no instances', { parameters: {} }, /instances is not specified/],
    ['not JSON', 'nope {', /Invalid JSON payload/],
  ];
  for (const [what, body, message] of refusals) {
    const answer = await submit(fake, body);
    t.equal(answer.status, 400, what);
    t.match(json(answer), { error: { code: 400, status: 'INVALID_ARGUMENT', message } }, what);
  }
});

t.test('scripted behaviours answer the next API request: a 429 with the fixture body, a 503, garbage', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 429 });
  fake.next({ error: 503 });
  fake.next({ garbage: true });
  const limited = await submit(fake);
  t.equal(limited.status, 429);
  t.strictSame(json(limited), quotaError);
  const unavailable = await submit(fake);
  t.equal(unavailable.status, 503);
  t.match(json(unavailable), { error: { code: 503, status: 'UNAVAILABLE' } });
  t.equal((await submit(fake)).body.toString('utf8'), 'this is not JSON {');
  t.equal((await submit(fake)).status, 200, 'then the default again');
  t.equal((await send(`${fake.url}/v1beta/models/veo:generateContent`, 'POST', {}, keyed)).status, 404, 'another method');
});

t.test('with models given, a task for another model is a 404 NOT_FOUND, and one for a given model is accepted', async (t) => {
  const fake = await startFakeVeoUpstream({ apiKey, models: ['veo-3.1-fast-generate-preview'] });
  t.teardown(() => fake.close());
  const unknown = await submit(fake, submitBody(), keyed, 'veo-9-nope');
  t.equal(unknown.status, 404);
  t.match(json(unknown), { error: { code: 404, status: 'NOT_FOUND', message: /^models\/veo-9-nope is not found/ } });
  t.equal((await submit(fake)).status, 200);
});
