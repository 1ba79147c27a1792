import { GuardedMediaFetcher } from '../../http/media-fetcher.js';
import { UndiciUpstreamHttp } from '../../http/upstream-client.js';
import type { ChannelContext } from '../../contracts/provider/operation-call.js';
import type { KeyValueStore, ProviderHost, ProviderLogger } from '../../contracts/provider/provider-host.js';

/** One line a plugin logged through its host during the suite. */
export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  object: object;
  message: string | undefined;
}

/** The host the suite lends a plugin, and what it keeps of the run. */
export interface ConformanceHost {
  host: ProviderHost;
  /** What the plugin logged, oldest first. */
  logged: LoggedLine[];
  close(): Promise<void>;
}

/**
 * A host like the gateway's: the same undici upstream client (connect errors, timeouts and
 * an aborted call become gateway errors) and the same SSRF-guarded media fetcher, here
 * allowed onto private addresses so a test's media server on 127.0.0.1 is reachable. The
 * key-value store lives in memory and the logger keeps its lines.
 */
export function createConformanceHost(): ConformanceHost {
  const http = new UndiciUpstreamHttp();
  const media = new GuardedMediaFetcher({ max_bytes: 20 * 1024 * 1024, timeout_ms: 10_000, allow_private_networks: true, allow_hosts: [], check_vendor_fetched_urls: true });
  const logged: LoggedLine[] = [];
  const log = (level: LoggedLine['level']) => (object: object, message?: string) => void logged.push({ level, object, message });
  const logger: ProviderLogger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const stores = new Map<string, Map<string, unknown>>();
  const keyValueStore = (namespace: string): KeyValueStore => {
    const store = stores.get(namespace) ?? new Map<string, unknown>();
    stores.set(namespace, store);
    return {
      get: async <Value>(key: string) => store.get(key) as Value | undefined,
      set: async (key, value) => void store.set(key, value),
      delete: async (key) => void store.delete(key),
    };
  };
  return {
    host: { http, media, logger, keyValueStore, now: () => Date.now() },
    logged,
    close: async () => {
      await Promise.all([http.close(), media.close()]);
    },
  };
}

/** The channel every call of the suite goes to: the upstream under test, with timeouts that leave room for a slow machine. */
export const conformanceChannel = (baseUrl: string, apiKey: string): ChannelContext => ({
  name: 'conformance',
  baseUrl: baseUrl.replace(/\/+$/, ''),
  apiKey,
  timeouts: { connectMilliseconds: 5_000, firstByteMilliseconds: 20_000, idleMilliseconds: 20_000, totalMilliseconds: 60_000 },
});
