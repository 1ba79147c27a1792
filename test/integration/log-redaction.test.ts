import t from 'tap';
import { chatBody, gxChannel, issueToken, postChat, postNative, nativeBody, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';

t.test('no credential ever reaches a log line, whatever the request does', async (t) => {
  const upstream = await startGx(t);
  // A channel key the fake refuses, so the upstream's own error path is logged too.
  const channelCanary = 'channel-canary-5f3a9c2e7b1d';
  const gateway = await scenarioGateway(t, {
    providers: [
      gxChannel('gx-good', upstream.url, { priority: 10 }),
      gxChannel('gx-wrong-key', upstream.url, { api_key: channelCanary, models: ['gx-3*'] }),
    ],
  });
  const token = await issueToken(t, gateway);

  await postChat(gateway, token, chatBody('hello'));
  await postChat(gateway, token, chatBody('hello', { stream: true }));
  upstream.next({ error: 500 });
  await postChat(gateway, token, chatBody('fails upstream'));
  await postChat(gateway, token, { ...chatBody('wrong channel key'), model: 'gx-3-pro' });
  await postNative(gateway, undefined, `gx-2.5-pro:generateContent?key=sk-${token.key}`, nativeBody('key in the query'));
  await postNative(gateway, undefined, 'gx-2.5-pro:generateContent', nativeBody('key in a header'), { 'x-gx-api-key': `sk-${token.key}` });
  await gateway.app.inject({ method: 'POST', url: '/v1/chat/completions?key=sk-' + token.key, headers: { authorization: `Bearer sk-${token.key}x` }, payload: chatBody('a wrong key') });
  await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/token/' });
  await gateway.asUser(`${token.loginToken}x`, { method: 'GET', url: '/api/token/' });

  const lines = gateway.logLines.join('');
  t.ok(gateway.logLines.length > 10, 'the requests were logged');
  for (const [name, secret] of [
    ['the API key', token.key],
    ['the channel key', channelCanary],
    ["the gx channel's key", 'gx-upstream-key'],
    ['the login token', token.loginToken],
  ] as const) {
    t.notOk(lines.includes(secret), `${name} is in no log line`);
  }
});
