import t from 'tap';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { MemoryStoreBackend } from '../../core/store/memory-store-backend.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { startPostgresServer } from '../helpers/postgres-server-process.js';
import { startRedisServer } from '../helpers/redis-server-process.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

t.test('/healthz answers 200 while the process serves', async (t) => {
  const { app } = await buildTestApp(t, 'memory');
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  t.equal(response.statusCode, 200);
  t.same(response.json(), { status: 'ok' });
});

t.test('/readyz answers 503 once the store no longer answers', async (t) => {
  const backend = new MemoryStoreBackend();
  const { app } = await buildTestApp(t, 'memory', {}, { backend });
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  await backend.close();
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(response.statusCode, 503);
  t.match(response.json(), { status: 'unavailable', storage: 'memory' });
});

t.test('/readyz follows a Redis that goes away and comes back, without a restart', async (t) => {
  const redis = await startRedisServer();
  t.teardown(() => redis.stop());
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: 'redis', url: redis.url });
  const { app } = await buildTestApp(t, 'redis', {}, { config: testConfig(storage) });
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);

  await redis.stop();
  const down = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(down.statusCode, 503);
  t.match(down.json(), { status: 'unavailable', storage: 'redis' });

  await redis.start();
  let status = 0;
  for (let attempt = 0; attempt < 60 && status !== 200; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;
  }
  t.equal(status, 200, 'ready again once Redis answers');
});

t.test('a management call while Redis is down fails cleanly with 503, not a crash', async (t) => {
  const redis = await startRedisServer();
  t.teardown(() => redis.stop());
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: 'redis', url: redis.url });
  const test = await buildTestApp(t, 'redis', {}, { config: testConfig(storage) });
  const login = await test.createUser('alice');
  await redis.stop();
  const response = await test.asUser(login, { method: 'GET', url: '/api/token/' });
  t.equal(response.statusCode, 503);
  t.match(response.json(), { success: false, message: /storage/ });
});

t.test('/readyz follows a PostgreSQL that goes away and comes back, without a restart', async (t) => {
  const postgres = await startPostgresServer();
  t.teardown(() => postgres.remove());
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: 'postgres', url: postgres.url });
  const test = await buildTestApp(t, 'postgres', {}, { config: testConfig(storage) });
  const login = await test.createUser('alice');
  t.equal((await test.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);

  await postgres.stop();
  const down = await test.app.inject({ method: 'GET', url: '/readyz' });
  t.equal(down.statusCode, 503);
  t.match(down.json(), { status: 'unavailable', storage: 'postgres' });
  const management = await test.asUser(login, { method: 'GET', url: '/api/token/' });
  t.equal(management.statusCode, 503, 'a management call fails cleanly, not with a crash');
  t.match(management.json(), { success: false, message: /storage/ });

  await postgres.start();
  let status = 0;
  for (let attempt = 0; attempt < 60 && status !== 200; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await test.app.inject({ method: 'GET', url: '/readyz' })).statusCode;
  }
  t.equal(status, 200, 'ready again once PostgreSQL answers, token notifications included');
  t.equal((await test.asUser(login, { method: 'GET', url: '/api/token/' })).statusCode, 200, 'and management calls work again');
});
