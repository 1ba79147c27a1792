import t from 'tap';
import { gatewayConfigSchema, type ProviderConfig } from '../../../core/config/config-schema.js';
import type { Provider } from '../../../core/contracts/provider/provider.js';
import { Channel } from '../../../core/routing/channel.js';
import { CircuitBreaker } from '../../../core/routing/circuit-breaker.js';
import { planAttempts, type AttemptRequest } from '../../../core/routing/plan-attempts.js';
import type { OperationName } from '../../../core/contracts/provider/operation-call.js';
import type { Translator } from '../../../core/contracts/translator.js';

const chatOnly: Provider = { operations: { chat: async () => ({ kind: 'json', body: {}, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'upstream' } }) } };

const channel = (name: string, extra: Record<string, unknown> = {}, provider: Provider = chatOnly, translators: Translator[] = []) =>
  new Channel(
    {
    index: 0,
    plugin: { apiVersion: 1, name: 'test', options: gatewayConfigSchema, create: () => provider } as never,
    options: {},
    provider,
    config: gatewayConfigSchema.parse({
      groups: { default: {}, vip: {} },
      providers: [{ name, plugin: 'test', base_url: 'http://127.0.0.1:9', models: ['gx-*'], ...extra }],
    }).providers[0] as ProviderConfig,
    },
    translators,
  );

/** A translator from `client` to `served`; routing reads only which operations it joins. */
const translatorOf = (name: string, client: OperationName, served: OperationName[]): Translator =>
  ({ name, client, served, request: () => ({ operation: served[0]!, request: {} }), answer: (body: unknown) => body, stream: () => ({ push: () => [], end: () => [] }) }) as unknown as Translator;

const request = (extra: Partial<AttemptRequest> = {}): AttemptRequest => ({
  model: 'gx-2.5-pro',
  operation: 'chat',
  groups: ['default'],
  crossGroupRetry: false,
  maxAttempts: 10,
  ...extra,
});

const names = (attempts: Iterable<{ channel: Channel; group: string }>) => [...attempts].map((attempt) => `${attempt.group}/${attempt.channel.name}`);
const breaker = () => new CircuitBreaker({ failureThreshold: 1, cooldownMilliseconds: 60_000 });

t.test('priority tiers are tried from the highest, and no channel twice', async (t) => {
  const channels = [channel('low', { priority: 0 }), channel('high', { priority: 10 }), channel('middle', { priority: 5 })];
  t.same(names(planAttempts(channels, request(), breaker())), ['default/high', 'default/middle', 'default/low']);
});

t.test('inside a tier the order is a weighted random choice', async (t) => {
  const channels = [channel('heavy', { weight: 9 }), channel('light', { weight: 1 })];
  let heavyFirst = 0;
  for (let run = 0; run < 2000; run += 1) {
    const [first] = names(planAttempts(channels, request(), breaker()));
    if (first === 'default/heavy') heavyFirst += 1;
  }
  t.ok(heavyFirst > 1650 && heavyFirst < 1950, `heavy first ${heavyFirst} of 2000 times, about 90%`);
  t.same(names(planAttempts(channels, request(), breaker(), () => 0.95)), ['default/light', 'default/heavy']);
});

t.test('the attempts stop at max_attempts', async (t) => {
  const channels = [channel('a'), channel('b'), channel('c')];
  t.equal(names(planAttempts(channels, request({ maxAttempts: 2 }), breaker())).length, 2);
});

t.test('channels outside the group, without the model or without the operation are not tried', async (t) => {
  const noChat: Provider = { operations: {} };
  const channels = [channel('vip-only', { groups: ['vip'] }), channel('other-model', { models: ['gp-5.4'] }), channel('no-chat', {}, noChat), channel('good')];
  t.same(names(planAttempts(channels, request(), breaker())), ['default/good']);
});

t.test('model_map keys and patterns make a channel serve a model', async (t) => {
  const channels = [channel('mapped', { models: ['upstream-name'], model_map: { 'gx-alias': 'upstream-name' } })];
  t.same(names(planAttempts(channels, request({ model: 'gx-alias' }), breaker())), ['default/mapped']);
  t.equal(channels[0]?.upstreamModel('gx-alias'), 'upstream-name');
});

t.test('auto walks its groups in order and stays in the first group that serves the model without cross_group_retry', async (t) => {
  const channels = [channel('vip-a', { groups: ['vip'] }), channel('default-a', { groups: ['default'] })];
  t.same(names(planAttempts(channels, request({ groups: ['gold', 'default', 'vip'] }), breaker())), ['default/default-a']);
  t.same(names(planAttempts(channels, request({ groups: ['gold', 'default', 'vip'], crossGroupRetry: true }), breaker())), [
    'default/default-a',
    'vip/vip-a',
  ]);
});

t.test('a channel whose circuit is open is passed over', async (t) => {
  const circuits = breaker();
  circuits.recordFailure('a');
  t.same(names(planAttempts([channel('a'), channel('b')], request(), circuits)), ['default/b']);
});

t.test('no channel for the model is a 404 that names the model', async (t) => {
  t.throws(() => names(planAttempts([channel('a')], request({ model: 'unknown-model' }), breaker())), {
    statusCode: 404,
    code: 'model_not_found',
    message: /unknown-model/,
  });
});

t.test('a model served only on other routes is a 404 model_not_on_route naming the routes it is served on', async (t) => {
  t.throws(() => names(planAttempts([channel('chat-only')], request({ operation: 'responses' }), breaker())), {
    statusCode: 404,
    code: 'model_not_on_route',
    param: 'model',
    message: 'model "gx-2.5-pro" is not served on POST /v1/responses; it is served on POST /v1/chat/completions',
  });
  const native: Provider = { operations: { 'native.generate': chatOnly.operations.chat as never } };
  t.throws(() => names(planAttempts([channel('chat-only'), channel('native', {}, native), channel('vip-only', { groups: ['vip'] }, { operations: { 'images.generate': chatOnly.operations.chat as never } })], request({ operation: 'images.edit' }), breaker())), {
    message: 'model "gx-2.5-pro" is not served on POST /v1/images/edits; it is served on POST /v1/chat/completions, POST /v1beta/models/{model}:generateContent, POST /v1beta/models/{model}:streamGenerateContent',
  }, "every route of the key's groups, once each, and none of another group's");
});

t.test('a channel whose provider lacks the operation is planned when a translator serves it there, and named among the routes', async (t) => {
  const responsesOverChat = translatorOf('responses-over-chat', 'responses', ['chat']);
  const nativeOverChat = translatorOf('native-over-chat', 'native.generate', ['chat', 'native.embed']);
  const translated = channel('chat-only', {}, chatOnly, [responsesOverChat, nativeOverChat]);
  t.same(names(planAttempts([translated], request({ operation: 'responses' }), breaker())), ['default/chat-only']);
  t.equal(translated.translatorFor('responses'), responsesOverChat);
  t.equal(translated.translatorFor('chat'), undefined, "the provider's own operation needs none");
  t.notOk(translated.servesOperation('native.generate'), 'a translator is chosen only when the provider implements every operation it serves');
  t.throws(() => names(planAttempts([translated], request({ operation: 'images.generate' }), breaker())), {
    message: 'model "gx-2.5-pro" is not served on POST /v1/images/generations; it is served on POST /v1/chat/completions, POST /v1/responses',
  });
});

t.test('of two translators able to serve one channel the first listed does, and none stands in front of the provider\'s own operation', async (t) => {
  const first = translatorOf('first', 'responses', ['chat']);
  const second = translatorOf('second', 'responses', ['chat']);
  t.equal(channel('a', {}, chatOnly, [first, second]).translatorFor('responses'), first);
  t.equal(channel('a', {}, chatOnly, [translatorOf('chat-over-x', 'chat', ['responses'])]).translatorFor('chat'), undefined);
});

t.test("a channel whose options leave the operation out is a 501 naming the channel and the option", async (t) => {
  const withoutAssets: Provider = { ...chatOnly, unavailable: { 'assets.create': 'options.assets' } };
  t.throws(() => names(planAttempts([channel('video-main', {}, withoutAssets)], request({ operation: 'assets.create' }), breaker())), {
    statusCode: 501,
    code: 'operation_not_configured',
    message: /^channel "video-main" serves model "gx-2\.5-pro" but is not set up for assets\.create: its config lacks options\.assets;/,
  });
});

t.test('when every channel for the model is cooling down the answer is 503 with Retry-After', async (t) => {
  const circuits = breaker();
  circuits.recordFailure('a');
  t.throws(() => names(planAttempts([channel('a')], request(), circuits)), {
    statusCode: 503,
    code: 'no_available_channel',
    headers: { 'retry-after': '60' },
  });
});

t.test('api_keys rotate round-robin across calls', async (t) => {
  const rotating = channel('keys', { api_keys: ['k1', 'k2', 'k3'] });
  t.same([1, 2, 3, 4].map(() => rotating.context().apiKey), ['k1', 'k2', 'k3', 'k1']);
});

t.test('a pinned channel is tried first, ahead of a higher priority, and others follow when it may fail over', async (t) => {
  const channels = [channel('high', { priority: 10 }), channel('holder', { priority: 0 })];
  t.same(names(planAttempts(channels, request({ pinned: { name: 'holder', exclusive: false } }), breaker())), ['default/holder', 'default/high']);
});

t.test('an exclusive pin tries only the channel holding the conversation', async (t) => {
  const channels = [channel('high', { priority: 10 }), channel('holder')];
  t.same(names(planAttempts(channels, request({ pinned: { name: 'holder', exclusive: true } }), breaker())), ['default/holder']);
});

t.test('an exclusive pin on a cooling-down channel is a 503 with Retry-After, not another channel', async (t) => {
  const circuits = breaker();
  circuits.recordFailure('holder');
  t.throws(() => names(planAttempts([channel('other'), channel('holder')], request({ pinned: { name: 'holder', exclusive: true } }), circuits)), {
    statusCode: 503,
    code: 'affinity_channel_unavailable',
    headers: { 'retry-after': '60' },
  });
});

t.test('a pin that may fail over skips a cooling-down channel and routes as usual', async (t) => {
  const circuits = breaker();
  circuits.recordFailure('holder');
  t.same(names(planAttempts([channel('other'), channel('holder')], request({ pinned: { name: 'holder', exclusive: false } }), circuits)), ['default/other']);
});

t.test('a pin to a channel that no longer serves the model is ignored', async (t) => {
  t.same(names(planAttempts([channel('a')], request({ pinned: { name: 'removed', exclusive: true } }), breaker())), ['default/a']);
});
