// What a plugin author writes: the conformance suite of `model-gateway/testing` against the
// plugin and the upstream answer it was recorded with. Any test runner will do; this one is tap.
import t from 'tap';
import { runConformance } from 'model-gateway/testing';
import { startChatUpstream } from './recorded-upstream.js';

t.test('the JSON chat provider passes the conformance suite against its recorded upstream', async (t) => {
  const upstream = await startChatUpstream();
  t.teardown(() => upstream.close());

  const report = await runConformance({
    plugin: new URL('./index.ts', import.meta.url),
    options: { default_temperature: 0.2 },
    invalidOptions: [{ path_prefix: 'v1/' }, { default_temperature: 3 }, { region: 'eu' }],
    upstream,
    cases: { chat: { model: 'acme-mini', request: { model: 'acme-mini', messages: [{ role: 'user', content: 'Invent a holiday.' }] } } },
  });
  for (const check of report.checks) t.ok(check.passed, check.name, { message: check.message });
  t.match(upstream.requests[0], { path: '/v1/chat/completions', headers: { authorization: 'Bearer conformance-key' }, json: { model: 'acme-mini', temperature: 0.2 } }, 'the upstream got the request in its own format');
});
