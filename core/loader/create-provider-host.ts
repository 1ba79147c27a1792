import type { FastifyBaseLogger } from 'fastify';
import type { ProviderConfig } from '../config/config-schema.js';
import type { KeyValueStore, ProviderHost } from '../contracts/provider/provider-host.js';
import type { MediaFetcher } from '../contracts/provider/media-fetcher.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import type { UpstreamHttp } from '../contracts/provider/upstream-http.js';
import { defaultMaxResponseBytes } from '../http/read-whole-body.js';
import type { StoreBackend } from '../store/store-backend.js';

/** What every provider host shares. */
export interface HostServices {
  http: UpstreamHttp;
  media: MediaFetcher;
  backend: StoreBackend;
  logger: FastifyBaseLogger;
  now: () => number;
}

/**
 * The most a channel's answers read whole may hold, in bytes: its `max_response_mb`, else the
 * default its plugin declares for the family (images as base64 are larger than text), else 64 MiB.
 */
export function maxResponseBytesOf(channel: Pick<ProviderConfig, 'max_response_mb'>, plugin: Pick<ProviderPlugin, 'maxResponseMb'>): number {
  const megabytes = channel.max_response_mb ?? plugin.maxResponseMb;
  return megabytes === undefined ? defaultMaxResponseBytes : megabytes * 1024 * 1024;
}

/**
 * The host lent to one channel's plugin: shared services, its own logger and its own
 * key-value namespace. Every upstream answer its requests get holds at most
 * `maxResponseBytes` when read whole (see {@link maxResponseBytesOf}), unless the provider
 * asks for a limit of its own.
 */
export function createProviderHost(services: HostServices, pluginName: string, channelName: string, maxResponseBytes = defaultMaxResponseBytes): ProviderHost {
  const logger = services.logger.child({ plugin: pluginName, channel: channelName });
  const { http, media } = services;
  return {
    http: { request: (request) => http.request({ maxResponseBytes, ...request }) },
    media: {
      fetch: (url, options) => media.fetch(url, options),
      streamUpstreamUrl: (url, options) => media.streamUpstreamUrl(url, { maxResponseBytes, ...options }),
      checkVendorFetchedUrls: (urls, signal) => media.checkVendorFetchedUrls(urls, signal),
    },
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
