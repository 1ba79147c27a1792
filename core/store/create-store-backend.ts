import { resolve } from 'node:path';
import type { GatewayConfig } from '../config/config-schema.js';
import { MemoryStoreBackend } from './memory-store-backend.js';
import { RedisStoreBackend } from './redis-store-backend.js';
import { SqliteStoreBackend } from './sqlite-store-backend.js';
import type { StoreBackend } from './store-backend.js';

/** Opens the backend the config's `storage` section names. Relative paths resolve against the working directory. */
export async function createStoreBackend(storage: GatewayConfig['storage']): Promise<StoreBackend> {
  switch (storage.driver) {
    case 'memory':
      return new MemoryStoreBackend();
    case 'redis':
      return RedisStoreBackend.open(storage.url as string, storage.key_prefix);
    case 'sqlite':
      return SqliteStoreBackend.open(resolve(storage.path ?? `${storage.data_dir}/gateway.sqlite`));
  }
}
