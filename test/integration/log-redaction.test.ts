import t, { type Test } from 'tap';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import type { TestApp, TestAppOptions } from '../helpers/build-test-app.js';
import { startCollector } from '../helpers/otlp-collector.js';
import {
  chatBody,
  gxChannel,
  gxUpstreamKey,
  issueToken,
  postChat,
  postNative,
  nativeBody,
  scenarioGateway,
  startGx,
  type IssuedToken,
} from '../helpers/gateway-scenario.js';

// A channel key the fake refuses, so the upstream's own error path is logged too.
const channelCanary = 'channel-canary-5f3a9c2e7b1d';

/** A gateway with a good gx channel and one whose key the upstream refuses, and a token on it. */
async function canaryGateway(t: Test, overrides: Record<string, unknown> = {}, options: TestAppOptions = {}) {
  const upstream = await startGx(t);
  const gateway = await scenarioGateway(
    t,
    {
      providers: [gxChannel('gx-good', upstream.url, { priority: 10 }), gxChannel('gx-wrong-key', upstream.url, { api_key: channelCanary, models: ['gx-3*'] })],
      ...overrides,
    },
    options,
  );
  return { upstream, gateway, token: await issueToken(t, gateway) };
}

/** Requests down every path: success, stream, upstream failure, refused channel key, the key in a query or a header (the spec's and the vendor's), wrong keys. */
async function sendDownEveryPath(gateway: TestApp, upstream: FakeGxUpstream, token: IssuedToken): Promise<void> {
  await postChat(gateway, token, chatBody('hello'));
  await postChat(gateway, token, chatBody('hello', { stream: true }));
  upstream.next({ error: 500 });
  await postChat(gateway, token, chatBody('fails upstream'));
  await postChat(gateway, token, { ...chatBody('wrong channel key'), model: 'gx-3-pro' });
  await postNative(gateway, undefined, `gx-2.5-pro:generateContent?key=sk-${token.key}`, nativeBody('key in the query'));
  await postNative(gateway, undefined, 'gx-2.5-pro:generateContent', nativeBody('key in a header'), { 'x-gx-api-key': `sk-${token.key}` });
  await postNative(gateway, undefined, 'gx-2.5-pro:generateContent', nativeBody('key in the vendor header'), { 'x-goog-api-key': `sk-${token.key}` });
  await gateway.app.inject({ method: 'POST', url: '/v1/chat/completions?key=sk-' + token.key, headers: { authorization: `Bearer sk-${token.key}x` }, payload: chatBody('a wrong key') });
  await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/' });
  await gateway.asUser(`${token.loginToken}x`, { method: 'GET', url: '/api/token/' });
}

/** The credentials of the scenario, by name. */
function credentials(token: IssuedToken): Array<[string, string]> {
  return [
    ['the API key', token.key],
    ['the channel key', channelCanary],
    ["the gx channel's key", gxUpstreamKey],
    ['the login token', token.loginToken],
  ];
}

function assertNoCredential(t: Test, text: string, where: string, secrets: Array<[string, string]>): void {
  for (const [name, secret] of secrets) t.notOk(text.includes(secret), `${name} is in no ${where}`);
}

t.test('no credential ever reaches a log line, whatever the request does', async (t) => {
  const { upstream, gateway, token } = await canaryGateway(t);
  await sendDownEveryPath(gateway, upstream, token);
  t.ok(gateway.logLines.length > 10, 'the requests were logged');
  assertNoCredential(t, gateway.logLines.join(''), 'log line', credentials(token));
});

t.test('at trace level and with tracing on, no credential reaches a log line or an exported span', async (t) => {
  const collector = await startCollector(t);
  const encryptionKey = 'encryption-canary-0d6b2f9e4a7c1e3b5d8f';
  const { upstream, gateway, token } = await canaryGateway(
    t,
    {
      security: { encryption_key: encryptionKey },
      observability: { tracing: { enabled: true, endpoint: `${collector.url}/v1/traces` } },
    },
    { logLevel: 'trace' },
  );
  t.equal(gateway.app.log.level, 'trace', 'the gateway logs at trace level');
  await sendDownEveryPath(gateway, upstream, token);
  await gateway.app.close();

  const secrets = [...credentials(token), ['security.encryption_key', encryptionKey] as [string, string]];
  t.ok(gateway.logLines.length > 10, 'the requests were logged');
  assertNoCredential(t, gateway.logLines.join(''), 'log line', secrets);
  const spans = collector.exports.map((entry) => entry.text).join('\n');
  t.match(spans, /"gateway\.request_id"/, 'the requests were exported as spans');
  assertNoCredential(t, spans, 'exported span', secrets);
});

t.test('a credential sent as x-request-id is not kept as the request id, so it reaches no log line or span', async (t) => {
  const collector = await startCollector(t);
  const { gateway, token } = await canaryGateway(t, { observability: { tracing: { enabled: true, endpoint: `${collector.url}/v1/traces` } } });
  // A client that copies its credentials into the wrong header: the id is echoed, logged on every line and exported.
  for (const id of [`sk-${token.key}`, token.loginToken]) {
    t.equal((await postChat(gateway, token, chatBody('hello'), { headers: { 'x-request-id': id } })).statusCode, 200);
  }
  await gateway.app.close();
  const sinks = [...gateway.logLines, ...collector.exports.map((entry) => entry.text)].join('\n');
  t.match(sinks, /model request answered/, 'the requests were logged');
  t.notOk(
    [token.key, token.loginToken].some((secret) => sinks.includes(secret)),
    'neither the API key nor the login token is in a log line or span: a credential-shaped request id is replaced',
  );
});
