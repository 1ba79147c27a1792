import t from 'tap';
import { dsxModerationRecord, dsxTaskSchema, fromDsxTask } from '../../../../providers/dsx/from-dsx-task.js';
import { dsxFixture } from './fixtures/read-dsx-fixtures.js';

const recorded = dsxFixture('ark-seedance-task-succeeded.json');
const task = (fields: Record<string, unknown>) => dsxTaskSchema.parse({ ...recorded, content: undefined, usage: undefined, ...fields });

t.test('the recorded success maps to succeeded with its video URL and its completion tokens', async (t) => {
  const progress = fromDsxTask(dsxTaskSchema.parse(recorded));
  t.strictSame(progress, {
    kind: 'task-progress',
    status: 'succeeded',
    url: 'https://ark-content-generation-ap-southeast-1.tos-ap-southeast-1.volces.com/xxx',
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 108900, reasoningTokens: 0, outputModalities: { video: 108900 }, seconds: 5, resolution: '720p', source: 'upstream' },
  });
});

t.test('a success without a token count leaves the usage to the submit estimate; its last frame goes into details', async (t) => {
  const progress = fromDsxTask(task({ status: 'succeeded', content: { video_url: 'https://v.example/a.mp4', last_frame_url: 'https://v.example/a.jpeg' } }));
  t.strictSame(progress, { kind: 'task-progress', status: 'succeeded', url: 'https://v.example/a.mp4', details: { last_frame_url: 'https://v.example/a.jpeg' } });
});

t.test('every upstream state maps onto core states', async (t) => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['queued', { kind: 'task-progress', status: 'queued' }],
    ['pending', { kind: 'task-progress', status: 'queued' }],
    ['running', { kind: 'task-progress', status: 'in_progress' }],
    ['a-state-added-later', { kind: 'task-progress', status: 'in_progress' }],
    ['cancelled', { kind: 'task-progress', status: 'failed', error: { code: 409, message: /cancelled/, type: 'cancelled' } }],
    ['expired', { kind: 'task-progress', status: 'failed', error: { code: 504, message: /expired/, type: 'expired' } }],
    ['succeeded', { kind: 'task-progress', status: 'failed', error: { code: 502, message: /without a video URL/, type: 'empty_response' } }],
  ];
  for (const [status, expected] of cases) t.match(fromDsxTask(task({ status })), expected, status);
});

t.test('a failure keeps the upstream code name as error.type with a numeric code; moderation failures are 400', async (t) => {
  const cases: Array<[string | undefined, number]> = [
    ['OutputVideoSensitiveContentDetected', 400],
    ['InputImageSensitiveContentDetected', 400],
    ['InvalidParameter', 400],
    ['InternalServiceError', 500],
    ['QuotaExceeded', 429],
    ['RequestTimeout', 504],
    [undefined, 500],
  ];
  for (const [code, status] of cases) {
    const progress = fromDsxTask(task({ status: 'failed', error: code === undefined ? undefined : { code, message: `why ${code}. Request id: 0217` } }));
    t.match(progress, { status: 'failed', error: { code: status, type: code ?? 'failed', message: code === undefined ? 'the upstream task failed' : `why ${code}. Request id: 0217` } }, String(code));
  }
});

t.test('the moderation record is read from the task', async (t) => {
  t.strictSame(dsxModerationRecord(dsxTaskSchema.parse(recorded)), { result: 'passed', flagged: false, task_status: 'succeeded' });
  t.strictSame(dsxModerationRecord(task({ status: 'running' })), { result: 'pending', flagged: false, task_status: 'running' });
  t.strictSame(dsxModerationRecord(task({ status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'flagged' } })), {
    result: 'blocked',
    flagged: true,
    task_status: 'failed',
    target: 'output_video',
    code: 'OutputVideoSensitiveContentDetected',
    message: 'flagged',
  });
  t.strictSame(dsxModerationRecord(task({ status: 'failed', error: { code: 'InternalServiceError', message: 'boom' } })), {
    result: 'not_flagged',
    flagged: false,
    task_status: 'failed',
    code: 'InternalServiceError',
    message: 'boom',
  });
});

t.test('the usage of a success needs the tokens, the seconds and the resolution; frames count as frames / fps', async (t) => {
  const done = (fields: Record<string, unknown>) => task({ status: 'succeeded', content: { video_url: 'https://v.example/a.mp4' }, ...fields });
  t.match(fromDsxTask(done({ usage: { completion_tokens: 50 }, duration: undefined, frames: 121, framespersecond: 24, resolution: '480p' })).usage, { outputTokens: 50, seconds: 121 / 24, resolution: '480p' });
  t.equal(fromDsxTask(done({ usage: { completion_tokens: 50 }, duration: undefined })).usage, undefined, 'no seconds: the submit estimate is billed');
  t.equal(fromDsxTask(done({ usage: { completion_tokens: 50 }, resolution: undefined })).usage, undefined, 'no resolution: the submit estimate is billed');
  t.equal(fromDsxTask(done({ usage: { total_tokens: 50 } })).usage, undefined, 'no completion tokens: the submit estimate is billed');
});

t.test('the lenient task schema tolerates unknown fields and nulls', async (t) => {
  t.ok(dsxTaskSchema.safeParse({ status: 'queued', content: null, usage: null, error: null, tools: [{ type: 'web_search' }] }).success);
  t.notOk(dsxTaskSchema.safeParse({ id: 'x' }).success, 'a status is needed');
});
