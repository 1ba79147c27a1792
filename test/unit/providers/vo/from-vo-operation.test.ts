import t from 'tap';
import { GatewayError } from '../../../../core/index.js';
import { readVoOperation } from '../../../../providers/vo/from-vo-operation.js';
import { voFixture } from './fixtures/read-vo-fixture.js';

const recorded = voFixture('gemini-veo-operation.json');

t.test('a pending operation, with done false or without a done key, is in progress', async (t) => {
  t.strictSame(readVoOperation(recorded.poll_pending), { progress: { kind: 'task-progress', status: 'in_progress' }, videoUris: [] });
  t.strictSame(readVoOperation(recorded.submit_response).progress, { kind: 'task-progress', status: 'in_progress' }, 'no done key means not done');
  t.equal(readVoOperation({ ...recorded.poll_pending, metadata: { anything: 1 } }).progress.status, 'in_progress', 'metadata is ignored');
});

t.test('a done operation with samples succeeded; its upstream address is kept for downloads, never shown as url', async (t) => {
  const reading = readVoOperation(recorded.poll_done);
  t.strictSame(reading, {
    progress: { kind: 'task-progress', status: 'succeeded', progress: 100 },
    videoUris: ['https://generativelanguage.googleapis.com/v1beta/files/abc123xyz:download?alt=media'],
  });
  t.notOk('url' in reading.progress);
});

t.test('samples next to filtered ones still succeed, with only the videos made', async (t) => {
  const partial = recorded.poll_done;
  partial.response.generateVideoResponse.generatedSamples.push({ video: {} });
  partial.response.generateVideoResponse.raiMediaFilteredCount = 1;
  partial.response.generateVideoResponse.raiMediaFilteredReasons = ['one was filtered'];
  const reading = readVoOperation(partial);
  t.equal(reading.progress.status, 'succeeded');
  t.equal(reading.videoUris.length, 1, 'a sample without an address is not a video');
});

t.test('a filtered operation failed as content_filtered with the upstream reasons', async (t) => {
  const filtered = recorded.poll_done_filtered;
  filtered.response.generateVideoResponse.raiMediaFilteredReasons = ['Audio generation failed for this prompt.'];
  t.strictSame(readVoOperation(filtered).progress, {
    kind: 'task-progress',
    status: 'failed',
    error: { code: 400, message: "the upstream's safety filters removed the video: Audio generation failed for this prompt.; change the prompt or the frames", type: 'content_filtered' },
  });
});

t.test('an operation error failed with the HTTP-like status of its rpc code and the status name as type', async (t) => {
  t.strictSame(readVoOperation(recorded.poll_done_error).progress, { kind: 'task-progress', status: 'failed', error: { code: 400, message: '...', type: 'INVALID_ARGUMENT' } });
  t.match(readVoOperation({ name: 'x', done: true, error: { code: 8, message: 'Quota exceeded.' } }).progress, { error: { code: 429, type: 'RESOURCE_EXHAUSTED' } });
  t.match(readVoOperation({ name: 'x', done: true, error: { code: 13 } }).progress, { error: { code: 500, type: 'INTERNAL', message: /INTERNAL/ } });
  t.match(readVoOperation({ name: 'x', done: true, error: { code: 99, message: 'odd', status: 'ODD' } }).progress, { error: { code: 500, type: 'ODD' } });
});

t.test('done without videos or reasons failed as empty_response', async (t) => {
  t.match(readVoOperation({ name: 'x', done: true, response: { generateVideoResponse: { generatedSamples: [] } } }).progress, { status: 'failed', error: { code: 502, type: 'empty_response' } });
  t.match(readVoOperation({ name: 'x', done: true }).progress, { status: 'failed', error: { type: 'empty_response' } });
});

t.test('an answer that is not an operation is a retryable 502', async (t) => {
  for (const answer of ['text', 42, null, { done: 'yes' }]) {
    let thrown: unknown;
    try {
      readVoOperation(answer);
    } catch (error) {
      thrown = error;
    }
    t.ok(GatewayError.is(thrown), JSON.stringify(answer));
    t.match(thrown, { statusCode: 502, code: 'upstream_invalid_response', retryable: true });
  }
});
