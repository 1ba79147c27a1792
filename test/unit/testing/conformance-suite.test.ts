import t from 'tap';
import { z } from 'zod';
import { defineProvider, GatewayError, type UpstreamHttp } from '../../../core/index.js';
import { runConformance, startRecordedUpstream } from '../../../core/testing/index.js';

// A chat plugin with the faults the suite exists to catch: it forgets the call's signal,
// judges every upstream failure retryable 502, reads the answer without checking it (a
// TypeError on a malformed one) and reports usage the wrong way round.
const careless = defineProvider({
  apiVersion: 2,
  name: 'careless',
  options: z.object({}).passthrough(),
  create: (_options, host) => ({
    operations: {
      async chat(call) {
        const http: UpstreamHttp = host.http;
        const response = await http.request({ method: 'POST', url: `${call.channel.baseUrl}/v1/chat/completions`, body: '{}', signal: new AbortController().signal, timeouts: call.channel.timeouts });
        if (response.statusCode !== 200) throw new GatewayError(502, 'upstream_error', 'the upstream failed', { retryable: true });
        const answer = JSON.parse(await response.body.text()) as { usage: { prompt_tokens: number } };
        return { kind: 'json', body: answer, usage: { inputTokens: answer.usage.prompt_tokens, cachedInputTokens: 99, outputTokens: 0, reasoningTokens: 0, source: 'upstream' } };
      },
    },
  }),
});

t.test('the suite fails a plugin on each fault, with a message that says what to change', async (t) => {
  const upstream = await startRecordedUpstream({
    routes: [{ path: '/v1/chat/completions', answer: { body: { choices: [{ message: { content: 'hi' } }], usage: { prompt_tokens: 3 } } } }],
    errorAnswer: (status, message) => ({ status, body: { error: { message } } }),
  });
  t.teardown(() => upstream.close());
  const report = await runConformance({
    plugin: careless,
    invalidOptions: [{ anything: true }],
    upstream,
    cases: { chat: { model: 'm', request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } } },
    abortMilliseconds: 500,
  });
  t.equal(report.passed, false);
  const failed = Object.fromEntries(report.failures.map((check) => [check.name, check.message]));
  t.match(failed, {
    'the options schema refuses invalidOptions[0]': /accepted \{"anything":true\}/,
    'chat: answers a result of kind json': /cachedInputTokens \(99\) are part of inputTokens \(3\)/,
    'chat: maps an upstream 429 to a retryable 429': 'status 502',
    'chat: maps an upstream 400 to a 4xx that is not retried': 'status 502',
    'chat: reports a malformed upstream answer as a 5xx gateway error': /threw SyntaxError/,
    'chat: stops with a gateway error when aborted while the upstream is silent': /still running 500 ms after its signal aborted; pass call.signal/,
  });
  t.notOk('chat: maps an upstream 503 to a retryable 5xx' in failed, 'what it gets right passes');
});
