// What a plugin author writes: the conformance suite of `model-gateway/testing` against the
// plugin and the upstream answer it was recorded with. Any test runner will do; this one is tap.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { runConformance, startRecordedUpstream } from 'model-gateway/testing';

const recorded = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

t.test('the JSON chat provider passes the conformance suite against its recorded upstream', async (t) => {
  const upstream = await startRecordedUpstream({
    routes: [{ method: 'POST', path: '/v1/chat/completions', answer: { body: recorded('chat-completion.json') } }],
    // OpenAI's error body (reference: upstreams.md §2.1).
    errorAnswer: (status, message) => ({ status, body: { error: { message, type: status === 429 ? 'requests' : 'invalid_request_error', param: null, code: null } } }),
  });
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
