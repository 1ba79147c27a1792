import { readFileSync } from 'node:fs';
import t from 'tap';
import { readSrVideo, srSecondsOf, toSrTaskProgress } from '../../../../providers/sr/from-sr-video.js';
import { srResolutionOf } from '../../../../providers/sr/sr-usage.js';

// Recorded and schema-complete video objects (openai-openapi examples, VideoResource).
const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/sr/openai-videos-objects.json', import.meta.url), 'utf8'));
const video = (object: unknown) => readSrVideo(JSON.stringify(object), true);

/** What `run` throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

t.test("the create example is a queued task at 0%, its id the task's handle", async (t) => {
  const created = video(fixture.create_example);
  t.equal(created.id, 'video_123');
  t.strictSame(toSrTaskProgress(created), { kind: 'task-progress', status: 'queued', progress: 0 });
  t.equal(srSecondsOf(created), 8, 'seconds arrive as the string "8"');
});

t.test('the remix example is queued and names the video it remixes', async (t) => {
  const remix = video(fixture.remix_example);
  t.equal(remix.remixed_from_video_id, 'video_123');
  t.match(toSrTaskProgress(remix), { status: 'queued' });
});

t.test('a completed video succeeds at 100% and reports its seconds at its resolution as the usage', async (t) => {
  t.strictSame(toSrTaskProgress(video(fixture.completed_schema_complete)), {
    kind: 'task-progress',
    status: 'succeeded',
    progress: 100,
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 8, resolution: '720p', source: 'upstream' },
  });
});

t.test("the fixture's failed video is a moderation failure: code 400, the upstream's code as type and its message", async (t) => {
  t.strictSame(toSrTaskProgress(video(fixture.failed_schema_complete)), {
    kind: 'task-progress',
    status: 'failed',
    progress: 0,
    error: { code: 400, message: '...', type: 'moderation_blocked' },
  });
});

t.test('every upstream status maps onto the task states', async (t) => {
  const base = fixture.completed_schema_complete;
  const cases: Array<[string, string]> = [
    ['queued', 'queued'],
    ['pending', 'queued'],
    ['in_progress', 'in_progress'],
    ['processing', 'in_progress'],
    ['completed', 'succeeded'],
    ['failed', 'failed'],
    ['cancelled', 'failed'],
  ];
  for (const [upstream, status] of cases) t.equal(toSrTaskProgress(video({ ...base, status: upstream })).status, status, `${upstream} → ${status}`);
  t.strictSame(toSrTaskProgress(video({ ...base, status: 'in_progress', progress: 37.6 })), { kind: 'task-progress', status: 'in_progress', progress: 38 });
  t.strictSame(toSrTaskProgress(video({ ...base, status: 'in_progress', progress: null })), { kind: 'task-progress', status: 'in_progress', progress: 0 });
});

t.test('an unknown status is a 502 that leaves the task as it was', async (t) => {
  t.match(thrown(() => toSrTaskProgress(video({ ...fixture.completed_schema_complete, status: 'rendering' }))), {
    statusCode: 502,
    code: 'upstream_invalid_response',
    message: /unknown status "rendering"/,
  });
  t.match(thrown(() => toSrTaskProgress(video({ ...fixture.completed_schema_complete, status: 'constructor' }))), { statusCode: 502, message: /unknown status "constructor"/ });
  for (const status of ['toString', '__proto__', 'hasOwnProperty']) {
    t.match(thrown(() => toSrTaskProgress(video({ ...fixture.completed_schema_complete, status }))), { statusCode: 502, message: new RegExp(`unknown status "${status}"`) }, `${status} is no state`);
  }
});

t.test('a failure without a reason, or another code, is a 500 with the code as type', async (t) => {
  const base = fixture.failed_schema_complete;
  t.match(toSrTaskProgress(video({ ...base, error: null })), { error: { code: 500, type: 'video_generation_failed', message: /failed without a reason/ } });
  t.match(toSrTaskProgress(video({ ...base, error: { code: 'internal_error', message: 'boom' } })), { error: { code: 500, type: 'internal_error', message: 'boom' } });
  t.match(toSrTaskProgress(video({ ...base, status: 'cancelled', error: null })), { error: { code: 500, type: 'cancelled', message: /was cancelled/ } });
  t.match(toSrTaskProgress(video({ ...base, error: { code: 'moderation_blocked', message: '' } })), { error: { code: 400, message: /moderation blocked the video/ } });
});

t.test('a completed video without its seconds or size reports no usage, so the reservation is billed', async (t) => {
  const { size: _size, ...withoutSize } = fixture.completed_schema_complete;
  t.equal(toSrTaskProgress(video(withoutSize)).usage, undefined);
  t.equal(toSrTaskProgress(video({ ...fixture.completed_schema_complete, seconds: 'eight' })).usage, undefined);
});

t.test('bodies that are not video objects are 502s, retryable only where asked', async (t) => {
  t.match(thrown(() => readSrVideo('not json', true)), { statusCode: 502, retryable: true });
  t.match(thrown(() => readSrVideo(JSON.stringify(fixture.list), false)), { statusCode: 502, retryable: false, message: /no id/ });
});

t.test('resolution keys are the short side: 720p for both sr-2 sizes', async (t) => {
  t.equal(srResolutionOf('720x1280'), '720p');
  t.equal(srResolutionOf('1280x720'), '720p');
  t.equal(srResolutionOf('1024x1792'), '1024p');
  t.equal(srResolutionOf('big'), undefined);
  t.equal(srResolutionOf(undefined), undefined);
});
