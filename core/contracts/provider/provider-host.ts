import type { UpstreamHttp } from './upstream-http.js';
import type { MediaFetcher } from './media-fetcher.js';

/** A namespaced key-value store lent to a plugin. */
export interface KeyValueStore {
  get<Value>(key: string): Promise<Value | undefined>;
  set<Value>(key: string, value: Value, ttlMilliseconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The logger lent to a plugin. */
export interface ProviderLogger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/** What core lends a plugin. No fastify, no dependency injection. */
export interface ProviderHost {
  http: UpstreamHttp;
  media: MediaFetcher;
  logger: ProviderLogger;
  /** A key-value store under the given namespace (no `:` in it), private to this plugin. */
  keyValueStore(namespace: string): KeyValueStore;
  /** Milliseconds since the epoch. */
  now(): number;
}
