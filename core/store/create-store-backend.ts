import { resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import { MemoryStoreBackend } from './memory-store-backend.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreMessageBus } from './store-message-bus.js';

/** What {@link createStoreBackend} may be given besides the config. */
export interface StoreBackendOptions {
  /** Hears what opening did to the data (a SQLite layout migrated). */
  logger?: Pick<FastifyBaseLogger, 'info'>;
  /**
   * Makes what the sqlite driver publishes and subscribes on: the cluster's bus in a worker
   * of `server.workers` > 1, so a token change reaches every worker. Called only by the sqlite
   * driver (Redis has its own pub/sub, and memory is never shared); by default messages stay
   * in the process.
   */
  createMessageBus?: () => StoreMessageBus;
}

/**
 * Opens the backend the config's `storage` section names. Relative paths resolve against the
 * working directory. Each driver's module is imported only when it is the one configured: the
 * redis client alone is some 420 modules (about 15 MiB resident) a SQLite gateway never uses.
 */
export async function createStoreBackend(storage: GatewayConfig['storage'], options: StoreBackendOptions = {}): Promise<StoreBackend> {
  switch (storage.driver) {
    case 'memory':
      return new MemoryStoreBackend();
    case 'postgres': {
      // pg, like the redis client, loads only when its driver is configured.
      const { PostgresStoreBackend } = await import('./postgres-store-backend.js');
      return PostgresStoreBackend.open(storage.url as string, storage.schema);
    }
    case 'redis': {
      const { RedisStoreBackend } = await import('./redis-store-backend.js');
      return RedisStoreBackend.open(storage.url as string, storage.key_prefix);
    }
    case 'sqlite': {
      const { SqliteStoreBackend } = await import('./sqlite-store-backend.js');
      return SqliteStoreBackend.open(resolve(storage.path ?? `${storage.data_dir}/gateway.sqlite`), options.logger, options.createMessageBus?.());
    }
  }
}
