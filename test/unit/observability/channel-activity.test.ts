import t from 'tap';
import { ChannelActivity } from '../../../core/observability/channel-activity.js';
import type { ObservedRequest } from '../../../core/observability/run-observer.js';

const request = (attempts: ObservedRequest['attempts']): ObservedRequest => ({
  operation: 'chat',
  model: 'gx-2.5-pro',
  channel: attempts.at(-1)?.channel ?? 'none',
  outcome: 'success',
  status: 200,
  attempts,
  milliseconds: 1,
  streamed: false,
  startedAt: 0,
  requestId: 'r',
});

t.test("a channel's summary counts its attempts by outcome, with the median of the answered ones and the latest error", async (t) => {
  let now = 1_700_000_000_000;
  const activity = new ChannelActivity(['a', 'b'], { capacity: 10, windowMilliseconds: 60_000 }, () => now);
  activity.requestFinished(request([{ channel: 'a', milliseconds: 500, outcome: 'failed', code: 'upstream_timeout' }, { channel: 'b', milliseconds: 40, outcome: 'success' }]));
  now += 1000;
  activity.requestFinished(request([{ channel: 'b', milliseconds: 20, outcome: 'success' }]));
  activity.requestFinished(request([{ channel: 'b', milliseconds: 5, outcome: 'refused', code: 'upstream_invalid_request' }]));
  activity.requestFinished(request([{ channel: 'b', milliseconds: 9, outcome: 'aborted' }]));
  activity.requestFinished(request([{ channel: 'made-up', milliseconds: 1, outcome: 'success' }]));
  t.same(activity.summaryOf('a'), { requests: 1, errors: 1, refused: 0, p50_latency_ms: null, last_error: { code: 'upstream_timeout', at: 1_700_000_000 } });
  t.same(activity.summaryOf('b'), { requests: 4, errors: 0, refused: 1, p50_latency_ms: 30, last_error: null });
  t.same(activity.summaryOf('made-up'), { requests: 0, errors: 0, refused: 0, p50_latency_ms: null, last_error: null }, 'a name outside the config is not kept');
});

t.test('a summary looks back only over the window, and a channel keeps at most its capacity of attempts', async (t) => {
  let now = 0;
  const activity = new ChannelActivity(['a'], { capacity: 3, windowMilliseconds: 10_000 }, () => now);
  for (const milliseconds of [100, 200, 300, 400, 500]) activity.requestFinished(request([{ channel: 'a', milliseconds, outcome: 'success' }]));
  t.match(activity.summaryOf('a'), { requests: 3, p50_latency_ms: 400 }, 'the last three');
  now = 10_001;
  t.match(activity.summaryOf('a'), { requests: 0, p50_latency_ms: null }, 'none within the window');
});
