import t from 'tap';
import { GatewayMetrics } from '../../../core/observability/gateway-metrics.js';

// An upstream's own error code is passed through to the client (spec part 2's video
// refusals), and an upstream, or a client choosing what makes it refuse, can vary it without
// end: as a label each code would be a series of its own.

const request = (outcome: string) => ({ operation: 'video-submit', model: 'sdx-*', channel: 'ark', outcome, status: 502, attempts: [], milliseconds: 5, streamed: false });

t.test('upstream error codes outside the registry share one outcome label; the registry’s codes keep their own', async (t) => {
  const metrics = new GatewayMetrics(() => []);
  for (let index = 0; index < 100; index += 1) metrics.modelRequest(request(`InvalidParameter.Variant${index}`));
  metrics.modelRequest(request('upstream_timeout'));
  metrics.modelRequest(request('success'));
  metrics.modelRequest(request('__proto__'));
  const lines = (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('gateway_model_requests_total{'));
  t.same(
    lines.map((line) => /outcome="([^"]*)"/.exec(line)?.[1]),
    ['upstream_code', 'upstream_timeout', 'success'],
    'three series: the upstream codes, a registry code, success',
  );
  t.match(lines[0], / 101$/, 'every passed-through code is counted under upstream_code');
});
