// What a plugin author writes: the conformance suite against the plugin and its recorded stream.
import t from 'tap';
import { runConformance } from 'model-gateway/testing';
import { startStreamingUpstream } from './recorded-upstream.js';

t.test('the streaming chat provider passes the conformance suite against its recorded stream', async (t) => {
  const upstream = await startStreamingUpstream();
  t.teardown(() => upstream.close());

  const report = await runConformance({
    plugin: new URL('./index.ts', import.meta.url),
    invalidOptions: [{ path_prefix: '/v1/' }, { stream: true }],
    upstream,
    cases: { chat: { model: 'acme-stream', request: { model: 'acme-stream', stream: true, messages: [{ role: 'user', content: 'Invent a holiday.' }] } } },
  });
  for (const check of report.checks) t.ok(check.passed, check.name, { message: check.message });
  t.match(upstream.requests[0]?.json, { model: 'acme-stream', stream: true, stream_options: { include_usage: true } }, 'the upstream is asked for a stream with usage');
});
