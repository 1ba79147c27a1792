import t from 'tap';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioPricing, startGx, storedToken, waitForToken } from '../helpers/gateway-scenario.js';
import { startPersistentRedisServer } from '../helpers/persistent-redis-server.js';
import { storageFor, testConfig } from '../helpers/test-config.js';
import { disable, storeRestartUnderLoad } from './store-restart-scene.js';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

t.test('a Redis restart under load: not ready and fail closed while down, serving again after, every 200 billed once', async (t) => {
  const redis = await startPersistentRedisServer(t);
  await storeRestartUnderLoad(t, { name: 'Redis', driver: 'redis', url: redis.url, kill: () => redis.kill(), start: () => redis.start() });
});

t.test('a token change made while an instance is still reconnecting to Redis is not missed', async (t) => {
  const redis = await startPersistentRedisServer(t);
  const fake = await startGx(t);
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: 'redis', url: redis.url });
  const config = testConfig(storage, { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] });
  const serving = await buildTestApp(t, 'redis', {}, { config });
  const token = await issueToken(t, serving);
  t.equal((await postChat(serving, token, chatBody('cached'))).statusCode, 200, 'the instance has the token in its cache');

  // Down long enough that the instance's reconnect backoff has grown past a second.
  await redis.kill();
  await sleep(1600);
  await redis.start();
  const managing = await buildTestApp(t, 'redis', {}, { config });
  await disable(managing, token);

  // Until its own connection is back the instance answers 503; after that it must refuse the token.
  const seen = new Set<number>();
  const until = Date.now() + 4000;
  for (;;) {
    const status = (await postChat(serving, token, chatBody('cached'))).statusCode;
    seen.add(status);
    if (status === 401 || status === 200 || Date.now() > until) break;
    await sleep(50);
  }
  t.notOk(seen.has(200), `the disabled token is never served (${[...seen].join(', ')})`);
  t.ok(seen.has(401), 'it is refused with 401');
});

t.test('a stream that ends while Redis is down is settled once Redis is back: charged what it delivered, its hold not kept', async (t) => {
  const redis = await startPersistentRedisServer(t);
  const fake = await startGx(t);
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: 'redis', url: redis.url });
  const gateway = await buildTestApp(t, 'redis', {}, { config: testConfig(storage, { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] }) });
  const base = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const token = await issueToken(t, gateway);
  const before = await storedToken(gateway, token);

  // The upstream sends its first text, pauses, then ends the stream: by then Redis is down.
  fake.next({ stallAfterChunks: 2, stallMs: 800 });
  const answer = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...token.bearer, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody('settled later', { stream: true })),
  });
  t.equal(answer.status, 200);
  await redis.kill();
  t.match(await answer.text(), /\[DONE\]/, 'the client got the whole stream');
  await sleep(300);
  await redis.start();

  // Until the gateway has its connection back, the management API answers 503.
  const after = await waitForToken(gateway, token, (stored) => (stored?.used_quota ?? 0) > 0, 15_000);
  t.ok(after.used_quota > 0, 'the stream is charged once the store takes writes again');
  t.equal(after.remain_quota + after.used_quota, before.remain_quota + before.used_quota, 'and nothing else stays held');
});
