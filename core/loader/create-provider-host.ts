import type { FastifyBaseLogger } from 'fastify';
import type { KeyValueStore, MediaFetcher, ProviderHost, UpstreamHttp } from '../contracts/provider-plugin.js';
import type { StoreBackend } from '../store/store-backend.js';

/** What every provider host shares. */
export interface HostServices {
  http: UpstreamHttp;
  media: MediaFetcher;
  backend: StoreBackend;
  logger: FastifyBaseLogger;
  now: () => number;
}

/** The host lent to one channel's plugin: shared services, its own logger and its own key-value namespace. */
export function createProviderHost(services: HostServices, pluginName: string, channelName: string): ProviderHost {
  const logger = services.logger.child({ plugin: pluginName, channel: channelName });
  return {
    http: services.http,
    media: services.media,
    logger,
    now: services.now,
    keyValueStore(namespace: string): KeyValueStore {
      // `storage copy` to Redis finds where the namespace ends by its colons (core/store/store-entries.ts).
      if (namespace.includes(':') || pluginName.includes(':')) {
        throw new Error(`plugin ${pluginName}: the key-value namespace ${JSON.stringify(namespace)} may not contain ":" (nor may the plugin's name); use another separator`);
      }
      const keyv = services.backend.keyv<unknown>(`plugin:${pluginName}:${namespace}`);
      return {
        get: async <Value>(key: string) => ((await keyv.get(key)) ?? undefined) as Value | undefined,
        set: async (key, value, ttlMilliseconds) => {
          await keyv.set(key, value, ttlMilliseconds);
        },
        delete: async (key) => {
          await keyv.delete(key);
        },
      };
    },
  };
}
