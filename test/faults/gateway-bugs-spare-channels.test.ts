import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { issueToken, postChat, scenarioGateway } from '../helpers/gateway-scenario.js';
import { buggyCalls, buggyInternals } from '../fixtures/plugins/buggy-chat-provider.js';

// A provider that throws something other than a GatewayError has a bug of the gateway's own,
// which every channel running that code shares: the client gets a generic 500, the log gets
// the stack, no other channel is tried, and the channel's circuit is not touched, however
// many such requests come in.

const buggyPlugin = fileURLToPath(new URL('../fixtures/plugins/buggy-chat-provider.ts', import.meta.url));
const failureThreshold = 3;

async function buggyGateway(t: Test) {
  buggyCalls.clear();
  return scenarioGateway(t, {
    pricing: { 'bug-chat': { per_call: 0.001 } },
    providers: [
      { name: 'first', plugin: buggyPlugin, base_url: 'http://127.0.0.1:9', models: ['bug-chat'], priority: 1 },
      { name: 'second', plugin: buggyPlugin, base_url: 'http://127.0.0.1:9', models: ['bug-chat'], priority: 0 },
    ],
    routing: { circuit_breaker: { failure_threshold: failureThreshold, cooldown_ms: 60_000 } },
  });
}

const chat = (text: string, fields: Record<string, unknown> = {}) => ({ model: 'bug-chat', messages: [{ role: 'user', content: text }], ...fields });

/** The error-level lines of the log (pino level 50 and up). */
const errorLines = (lines: string[]) =>
  lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { level: number; err?: { stack?: string } })
    .filter((record) => record.level >= 50);

t.test('a provider throwing a plain Error answers 500 internal_error, logged once with its stack, not retried, and the circuit stays closed', async (t) => {
  const gateway = await buggyGateway(t);
  const tripper = await issueToken(t, gateway);
  const bystander = await issueToken(t, gateway);

  const requests = failureThreshold * 4;
  for (let index = 0; index < requests; index += 1) {
    const response = await postChat(gateway, tripper, chat('please trip the bug'));
    t.equal(response.statusCode, 500, `request ${index + 1} answers 500`);
    const error = response.json().error;
    t.match(error, { code: 'internal_error', type: 'server_error', param: null }, 'in the OpenAI shape, as the gateway’s own failure');
    t.notMatch(error.message, new RegExp(`${buggyInternals}|TypeError|undefined`), 'the message tells nothing of the code');
  }
  t.equal(buggyCalls.get('first'), requests, 'every request reached the first channel');
  t.equal(buggyCalls.get('second') ?? 0, 0, 'none was retried on the second channel');

  const errors = errorLines(gateway.logLines);
  t.equal(errors.length, requests, 'one error line per failed request');
  t.ok(errors.every((record) => /TypeError/.test(record.err?.stack ?? '') && /buggy-chat-provider/.test(record.err?.stack ?? '')), 'each with the stack of the bug');

  const clean = await postChat(gateway, bystander, chat('hello'));
  t.equal(clean.statusCode, 200, "another tenant's clean request is served");
  t.equal(clean.json().choices[0].message.content, 'first answers', 'by the first channel: its circuit never opened');
});

t.test('a stream whose decoder throws before content answers 500 internal_error and leaves the circuit closed', async (t) => {
  const gateway = await buggyGateway(t);
  const token = await issueToken(t, gateway);
  for (let index = 0; index < failureThreshold * 2; index += 1) {
    const response = await postChat(gateway, token, chat('trip the decoder', { stream: true }));
    t.equal(response.statusCode, 500, `stream ${index + 1} answers 500`);
    t.match(response.json().error, { code: 'internal_error', type: 'server_error' });
    t.notMatch(response.payload, buggyInternals, 'the message tells nothing of the code');
  }
  t.equal(buggyCalls.get('second') ?? 0, 0, 'no stream was retried on the second channel');
  const streamed = await postChat(gateway, token, chat('hello'));
  t.equal(streamed.json().choices[0].message.content, 'first answers', 'the first channel still serves');
});

t.test('a provider answering chat with a kind of result chat never answers gets a clean 502, tries the next channel and opens no circuit', async (t) => {
  const gateway = await buggyGateway(t);
  const token = await issueToken(t, gateway);
  for (let index = 0; index < failureThreshold * 2; index += 1) {
    const response = await postChat(gateway, token, chat('trip the kind'));
    t.equal(response.statusCode, 502, `request ${index + 1} answers 502`);
    t.match(response.json().error, { code: 'upstream_invalid_response', message: /answered chat with a result of kind "task-progress", where chat answers json or stream/ });
  }
  t.equal(buggyCalls.get('first'), failureThreshold * 2, 'every request reached the first channel');
  t.equal(buggyCalls.get('second'), failureThreshold * 2, 'and was tried on the second, which may run another plugin');
  const clean = await postChat(gateway, token, chat('hello'));
  t.equal(clean.json().choices[0].message.content, 'first answers', 'the first channel still serves: its circuit never opened');
});
