import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { issueToken, lastAttempts, postChat, scenarioGateway, storedToken } from '../helpers/gateway-scenario.js';
import { echoPluginPath } from '../helpers/test-config.js';
import { preparingCalls } from '../fixtures/plugins/preparing-chat-provider.js';

// A version 2 plugin prepares a request once: before any quota is touched, and for every
// channel of that plugin the request tries. Its estimate and handler receive what it prepared.

const preparingPlugin = fileURLToPath(new URL('../fixtures/plugins/preparing-chat-provider.ts', import.meta.url));

async function gateway(t: Test, second: Record<string, unknown> = { plugin: preparingPlugin }) {
  preparingCalls.clear();
  return scenarioGateway(t, {
    pricing: { 'prep-chat': { input_per_mtok: 1, output_per_mtok: 1 } },
    providers: [
      { name: 'first', plugin: preparingPlugin, base_url: 'http://127.0.0.1:9', models: ['prep-chat'], priority: 1 },
      { name: 'second', base_url: 'http://127.0.0.1:9', models: ['prep-chat'], priority: 0, ...second },
    ],
  });
}

const chat = (text: string) => ({ model: 'prep-chat', messages: [{ role: 'user', content: text }] });

t.test('a request failing over between two channels of one plugin is prepared once, and the estimate and both handlers receive the prepared request', async (t) => {
  const app = await gateway(t);
  const token = await issueToken(t, app);
  const response = await postChat(app, token, chat('hello, fail on first'));
  t.equal(response.statusCode, 200);
  t.equal(response.json().choices[0].message.content, 'second read "hello, fail on first"', 'the second channel answered from the prepared text');
  t.strictSame(lastAttempts(app), ['first:failed', 'second:success'], 'the request failed over');

  t.equal(preparingCalls.prepared, 1, 'prepare ran once for the request');
  t.strictSame(preparingCalls.estimated, [{ text: 'hello, fail on first', preparation: 1 }], 'the estimate received the prepared request');
  t.strictSame(
    preparingCalls.handled.map((call) => call.channel),
    ['first', 'second'],
  );
  for (const call of preparingCalls.handled) t.equal(call.request, preparingCalls.estimated[0], `the ${call.channel} channel's handler received the very request the estimate did`);

  await postChat(app, token, chat('again'));
  t.equal(preparingCalls.prepared, 2, 'the next request is prepared afresh');
  t.strictSame(preparingCalls.handled.at(-1), { channel: 'first', request: { text: 'again', preparation: 2 } });
});

t.test('a request prepare refuses is a 400 that touches no quota and calls no channel', async (t) => {
  const app = await gateway(t);
  const token = await issueToken(t, app);
  const before = await storedToken(app, token);
  const response = await postChat(app, token, chat('please refuse this'));
  t.equal(response.statusCode, 400);
  t.match(response.json().error, { param: 'messages', message: /refuses the word "refuse"/ });
  t.equal(preparingCalls.prepared, 1);
  t.strictSame(preparingCalls.estimated, [], 'nothing was estimated');
  t.strictSame(preparingCalls.handled, [], 'no channel was called');
  const after = await storedToken(app, token);
  t.strictSame({ remain: after.remain_quota, used: after.used_quota }, { remain: before.remain_quota, used: before.used_quota }, 'the quota is as it was');
});

t.test('a failover to a version 1 plugin’s channel hands that channel the client’s request', async (t) => {
  const app = await gateway(t, { plugin: echoPluginPath, options: { prefix: 'echo: ' } });
  const token = await issueToken(t, app);
  const response = await postChat(app, token, chat('hi, fail on first'));
  t.equal(response.statusCode, 200);
  t.equal(response.json().choices[0].message.content, 'echo: hi, fail on first', 'the echo plugin read the messages of the client request');
  t.strictSame(lastAttempts(app), ['first:failed', 'second:success']);
  t.equal(preparingCalls.prepared, 1, 'the version 2 plugin prepared once; the version 1 plugin has nothing to prepare');
});
