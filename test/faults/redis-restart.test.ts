import t from 'tap';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioPricing, startGx } from '../helpers/gateway-scenario.js';
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
