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
