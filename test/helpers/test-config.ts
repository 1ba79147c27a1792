import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from '@redis/client';
import pg from 'pg';
import type { Test } from 'tap';
import { gatewayConfigSchema, type GatewayConfig } from '../../core/config/config-schema.js';
import { withDefaultUser } from '../../core/store/postgres-store-backend.js';

/** The third-party fixture plugin (test/fixtures/plugins/echo-provider), by absolute path. */
export const echoPluginPath = fileURLToPath(new URL('../fixtures/plugins/echo-provider/index.js', import.meta.url));

/** The storage drivers every conformance and API suite runs against. */
export const storageDrivers = ['memory', 'sqlite', 'redis', 'postgres'] as const;
export type StorageDriver = (typeof storageDrivers)[number];

/** The Redis the tests use: `REDIS_URL`, or the local default. */
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The PostgreSQL the tests use: `POSTGRES_URL`, or the local default. */
export const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://127.0.0.1:5432/test';

/** A fixed encryption key for tests (the redis driver requires one). */
export const testEncryptionKey = 'test-encryption-key-0123456789abcdef';

/**
 * Storage settings for one driver, isolated to the test: a fresh directory for sqlite, a
 * key prefix of its own on Redis, a schema of its own on PostgreSQL (both deleted when the
 * test ends).
 */
export function storageFor(t: Test, driver: StorageDriver): GatewayConfig['storage'] {
  const directory = t.testdir({});
  if (driver === 'memory') return gatewayConfigSchema.shape.storage.parse({ driver, data_dir: directory });
  if (driver === 'sqlite') return gatewayConfigSchema.shape.storage.parse({ driver, data_dir: directory, path: `${directory}/gateway.sqlite` });
  if (driver === 'postgres') {
    const schema = `mg_test_${randomBytes(6).toString('hex')}`;
    t.teardown(() => dropPostgresSchema(schema));
    return gatewayConfigSchema.shape.storage.parse({ driver, data_dir: directory, url: postgresUrl, schema });
  }
  const prefix = `mg-test-${randomBytes(6).toString('hex')}:`;
  t.teardown(() => deleteRedisPrefix(prefix));
  return gatewayConfigSchema.shape.storage.parse({ driver, data_dir: directory, url: redisUrl, key_prefix: prefix });
}

/** Removes every key under a prefix. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const client = createClient({ url: redisUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}

/** Drops a schema and everything in it (from `url`, the tests' PostgreSQL by default). */
export async function dropPostgresSchema(schema: string, url = postgresUrl): Promise<void> {
  const client = new pg.Client({ connectionString: withDefaultUser(url) });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

/** A full, valid config with test defaults; `overrides` replace top-level sections. */
export function testConfig(storage: GatewayConfig['storage'], overrides: Record<string, unknown> = {}): GatewayConfig {
  return gatewayConfigSchema.parse({
    storage,
    security: { encryption_key: testEncryptionKey },
    users: [],
    groups: { default: { ratio: 1 }, vip: { ratio: 0.8 } },
    auto_groups: ['default', 'vip'],
    providers: [
      {
        name: 'gx-main',
        plugin: 'gx',
        base_url: 'http://127.0.0.1:9/gx',
        api_key: 'upstream-secret',
        models: ['gx-2.5-pro', 'gx-3*'],
        model_map: { 'gx-latest': 'gx-2.5-pro' },
        groups: ['default'],
      },
      { name: 'gp-vip', plugin: echoPluginPath, base_url: 'http://127.0.0.1:9/gp', api_key: 'upstream-secret', models: ['gp-5.4'], groups: ['vip'] },
    ],
    ...overrides,
  });
}
