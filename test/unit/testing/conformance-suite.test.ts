import t, { type Test } from 'tap';
import { z } from 'zod';
import { defineProvider, GatewayError, invalidRequest, type OperationCall, type UpstreamHttp } from '../../../core/index.js';
import {
  bearerAuthorization,
  callUpstream,
  invalidUpstreamAnswer,
  parseUpstreamJson,
  upstreamRefusal,
  upstreamStatusError,
  type UpstreamStatusMapper,
} from '../../../core/kit/index.js';
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

// A video-task plugin as spec part 2 has the video and asset routes answer an upstream's
// refusal: the gateway's 502 carrying the upstream's code, never retried (or retried, when
// `retryRefusals` makes it wrong). It asks the upstream for the channel's mapped model, and
// opens validation sessions with the callback address the gateway hands it.
const videoRelay = (retryRefusals: boolean) =>
  defineProvider({
    apiVersion: 2,
    name: 'video-relay',
    options: z.strictObject({}),
    create: (_options, host) => {
      const statusError: UpstreamStatusMapper = async (response) => {
        if (response.statusCode !== 400) return upstreamStatusError(response);
        await response.body.dump();
        return upstreamRefusal('InvalidParameter', 'the upstream refused the task', { retryable: retryRefusals });
      };
      const send = async (call: OperationCall<unknown>, path: string, body?: object) => {
        const response = await callUpstream(host, call, { method: body === undefined ? 'GET' : 'POST', url: `${call.channel.baseUrl}${path}`, headers: bearerAuthorization(call), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, statusError);
        const answer = await response.body.text().then(parseUpstreamJson).catch(() => undefined);
        if (typeof answer !== 'object' || answer === null) throw invalidUpstreamAnswer('a JSON object', { retryable: false });
        return answer as Record<string, string>;
      };
      const usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 5, source: 'estimated' } as const;
      return {
        operations: {
          'video.submit': async (call) => ({ kind: 'task', handle: (await send(call, `/models/${call.upstreamModel}/tasks`, { prompt: 'x' })).id!, usage }),
          'video.status': async (call) => ({ kind: 'task-progress', status: (await send(call, `/tasks/${call.request.handle}`)).status === 'done' ? 'succeeded' : 'in_progress' }),
          'assets.createValidationSession': async (call) => {
            if (typeof call.request.callback_url !== 'string') throw invalidRequest('callback_url: expected the address to report back to');
            const session = await send(call, '/sessions', { callback: call.request.callback_url });
            return { kind: 'json', body: { byted_token: session.token, h5_link: session.link }, usage: { ...usage, seconds: undefined, source: 'upstream' } };
          },
        },
      };
    },
  });

async function runVideoRelay(t: Test, retryRefusals: boolean) {
  const upstream = await startRecordedUpstream({
    routes: [
      { method: 'POST', path: '/models/vendor-video-1/tasks', answer: { body: { id: 'task-1' } } },
      { method: 'GET', path: '/tasks/task-1', answer: { body: { status: 'done' } } },
      { method: 'POST', path: '/sessions', answer: { body: { token: 'session-1', link: 'https://vendor.example.com/check' } } },
    ],
    errorAnswer: (status, message) => ({ status, body: { error: message } }),
  });
  t.teardown(() => upstream.close());
  return runConformance({
    plugin: videoRelay(retryRefusals),
    invalidOptions: [{ anything: true }],
    upstream,
    cases: {
      'video.submit': { model: 'video-1', upstreamModel: 'vendor-video-1', request: { model: 'video-1', prompt: 'a fox' } },
      'video.status': { model: 'video-1', upstreamModel: 'vendor-video-1' },
      'assets.createValidationSession': { model: 'video-1', request: { callback_url: 'https://gateway.example.com/v1/visual-validate/result' } },
    },
    abortMilliseconds: 500,
  });
}

t.test('a video or asset operation passes an upstream refusal through as a 502 that is never retried, and asks the upstream for the mapped model', async (t) => {
  const report = await runVideoRelay(t, false);
  t.same(report.failures, [], `${report.checks.length} checks, none failed`);
  t.match(report.checks.find((check) => check.name === 'assets.createValidationSession: answers a result of kind json'), { passed: true }, "the gateway's callback address reaches the operation");
});

t.test('a refusal passed through as a retryable 502 still fails the suite', async (t) => {
  const report = await runVideoRelay(t, true);
  const failed = Object.fromEntries(report.failures.map((check) => [check.name, check.message]));
  t.same(Object.keys(failed).sort(), [
    "assets.createValidationSession: maps an upstream 400 to a 4xx or the route's 502 pass-through that is not retried",
    "video.status: maps an upstream 400 to a 4xx or the route's 502 pass-through that is not retried",
    "video.submit: maps an upstream 400 to a 4xx or the route's 502 pass-through that is not retried",
  ]);
  t.match(Object.values(failed), Array(3).fill('retryable, but another channel would refuse it too'));
});
