import t from 'tap';
import { fromDashScopeTask } from '../../../../providers/wn-hx/from-dashscope-task.js';
import { hxTiers } from '../../../../providers/wn-hx/hx-family.js';
import { hxLifecycleFixture, refusalOf } from './hx-test-helpers.js';

/** A task answer read at the tiers hx makes. */
const fromHxTask = (body: unknown) => fromDashScopeTask(body, hxTiers);

const withStatus = (status: string) => ({ request_id: 'r', output: { task_id: 't', task_status: status } });

t.test('PENDING and SUSPENDED are queued, RUNNING is in_progress', async (t) => {
  t.strictSame(fromHxTask(withStatus('PENDING')), { kind: 'task-progress', status: 'queued' });
  t.strictSame(fromHxTask(withStatus('SUSPENDED')), { kind: 'task-progress', status: 'queued' });
  t.strictSame(fromHxTask(withStatus('RUNNING')), { kind: 'task-progress', status: 'in_progress' });
});

t.test('a recorded success gives the video URL and bills the upstream’s seconds at its SR tier', async (t) => {
  const recorded = hxLifecycleFixture('real_wan_succeeded');
  t.strictSame(fromHxTask(recorded), {
    kind: 'task-progress',
    status: 'succeeded',
    url: recorded.output.video_url,
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 10, resolution: '1080p', source: 'upstream' },
  });
  const odd = fromHxTask(hxLifecycleFixture('succeeded'));
  t.equal(odd.status, 'succeeded');
  t.equal(odd.usage, undefined, 'SR "540" is no hx tier: the reserved usage is billed');
});

t.test('FAILED keeps the upstream’s code and message; moderation says so; CANCELED is 499', async (t) => {
  t.strictSame(fromHxTask(hxLifecycleFixture('failed')).error, { code: 400, message: 'The size is not match xxxxxx', type: 'InvalidParameter' });
  const blocked = hxLifecycleFixture('failed');
  blocked.output.code = 'DataInspectionFailed';
  t.match(fromHxTask(blocked).error, { code: 400, message: /^the upstream's moderation blocked the video: /, type: 'DataInspectionFailed' });
  t.strictSame(fromHxTask(withStatus('CANCELED')).error, { code: 499, message: 'the task was canceled upstream', type: 'Canceled' });
  const noUrl = hxLifecycleFixture('real_wan_succeeded');
  delete noUrl.output.video_url;
  t.match(fromHxTask(noUrl), { status: 'failed', error: { code: 502, type: 'empty_response' } });
});

t.test('the recorded UNKNOWN answer is a 404 for core to treat as vanished; other shapes are retryable 502s', async (t) => {
  t.match(refusalOf(() => fromHxTask(hxLifecycleFixture('unknown_expired'))), { statusCode: 404, code: 'task_vanished', message: /UNKNOWN/ });
  t.match(refusalOf(() => fromHxTask(hxLifecycleFixture('create_error'))), { statusCode: 502, code: 'upstream_auth_failed', message: /credentials/ });
  t.match(refusalOf(() => fromHxTask('nope')), { statusCode: 502, code: 'upstream_invalid_response', retryable: true, message: /not a task answer/ });
});
