import t from 'tap';
import { fromDashScopeTask } from '../../../../providers/wn-hx/from-dashscope-task.js';
import { wnTiers } from '../../../../providers/wn-hx/wn-family.js';
import { refusalOf, wnLifecycleFixture } from './wn-test-helpers.js';

const wn25 = wnTiers['wn2.5'];
const wn27 = wnTiers['wn2.7'];
const withStatus = (status: string) => ({ request_id: 'r', output: { task_id: 't', task_status: status } });

t.test('PENDING and SUSPENDED are queued, RUNNING is in_progress, without a progress DashScope does not report', async (t) => {
  t.strictSame(fromDashScopeTask(withStatus('PENDING'), wn25), { kind: 'task-progress', status: 'queued' });
  t.strictSame(fromDashScopeTask(withStatus('SUSPENDED'), wn25), { kind: 'task-progress', status: 'queued' });
  t.strictSame(fromDashScopeTask(withStatus('RUNNING'), wn25), { kind: 'task-progress', status: 'in_progress' });
  t.strictSame(fromDashScopeTask(withStatus('SOMETHING_NEW'), wn25), { kind: 'task-progress', status: 'queued' }, 'an unknown state keeps the task open');
});

t.test('the recorded real wan answer succeeds with its video URL and bills its 10 seconds at 1080p', async (t) => {
  const recorded = wnLifecycleFixture('real_wan_succeeded');
  t.strictSame(fromDashScopeTask(recorded, wn27), {
    kind: 'task-progress',
    status: 'succeeded',
    url: recorded.output.video_url,
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 10, resolution: '1080p', source: 'upstream' },
  });
});

t.test('usage numbers sent as strings are read; a tier the model does not make leaves the reserved usage to be billed', async (t) => {
  const recorded = wnLifecycleFixture('succeeded');
  t.equal(recorded.usage.SR, '540', 'the recording reports SR as a string');
  const odd = fromDashScopeTask(recorded, wn25);
  t.equal(odd.status, 'succeeded');
  t.equal(odd.url, recorded.output.video_url);
  t.equal(odd.usage, undefined, '540 is no wn tier');
  recorded.usage.SR = '720';
  recorded.usage.duration = '10.0';
  t.match(fromDashScopeTask(recorded, wn25).usage, { seconds: 10, resolution: '720p' });
  recorded.usage.video_count = 2;
  t.match(fromDashScopeTask(recorded, wn25).usage, { seconds: 20 }, 'each video counts');
  recorded.usage.SR = 480;
  t.equal(fromDashScopeTask(recorded, wn27).usage, undefined, 'wn2.7 makes no 480p');
  delete recorded.usage;
  t.equal(fromDashScopeTask(recorded, wn25).usage, undefined);
});

t.test('a success without a video URL fails the task instead of leaving it open', async (t) => {
  const recorded = wnLifecycleFixture('real_wan_succeeded');
  delete recorded.output.video_url;
  t.strictSame(fromDashScopeTask(recorded, wn27), {
    kind: 'task-progress',
    status: 'failed',
    error: { code: 502, message: 'the upstream reported success without a video URL', type: 'empty_response' },
  });
});

t.test('the recorded FAILED answer fails with an HTTP-like code, the upstream’s message, and its code as the type', async (t) => {
  t.strictSame(fromDashScopeTask(wnLifecycleFixture('failed'), wn25), {
    kind: 'task-progress',
    status: 'failed',
    error: { code: 400, message: 'The size is not match xxxxxx', type: 'InvalidParameter' },
  });
  const blocked = wnLifecycleFixture('failed');
  blocked.output.code = 'DataInspectionFailed';
  blocked.output.message = 'Output data may contain inappropriate content.';
  t.strictSame(fromDashScopeTask(blocked, wn25).error, {
    code: 400,
    message: "the upstream's moderation blocked the video: Output data may contain inappropriate content.",
    type: 'DataInspectionFailed',
  });
  const internal = wnLifecycleFixture('failed');
  internal.output.code = 'InternalError';
  t.match(fromDashScopeTask(internal, wn25).error, { code: 500, type: 'InternalError' });
  const bare = withStatus('FAILED');
  t.match(fromDashScopeTask(bare, wn25).error, { code: 500, message: /without a reason/, type: 'InternalError' });
});

t.test('CANCELED fails the task with 499 Canceled', async (t) => {
  t.strictSame(fromDashScopeTask(withStatus('CANCELED'), wn25).error, { code: 499, message: 'the task was canceled upstream', type: 'Canceled' });
});

t.test('the recorded UNKNOWN answer is a 404, which core treats as a vanished task', async (t) => {
  const error = refusalOf(() => fromDashScopeTask(wnLifecycleFixture('unknown_expired'), wn25));
  t.match(error, { statusCode: 404, code: 'task_vanished', message: /does not know the task, or the task is older than 24 hours/ });
});

t.test('an error body sent with HTTP 200 is judged by its code; a body of another shape is a retryable 502', async (t) => {
  t.match(refusalOf(() => fromDashScopeTask(wnLifecycleFixture('create_error'), wn25)), { statusCode: 502, code: 'upstream_auth_failed', message: /credentials/ });
  t.match(refusalOf(() => fromDashScopeTask({ code: 'Throttling.RateQuota', message: 'slow down' }, wn25)), { statusCode: 429, retryable: true, message: /slow down/ });
  t.match(refusalOf(() => fromDashScopeTask([1], wn25)), { statusCode: 502, code: 'upstream_invalid_response', retryable: true, message: /not a task answer/ });
  t.match(refusalOf(() => fromDashScopeTask({ output: {} }, wn25)), { code: 'upstream_invalid_response', message: /not a task answer/ });
});
