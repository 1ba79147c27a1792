import type { StoreBackend } from './store-backend.js';

/**
 * The base of a repository kept on a {@link StoreBackend}: it holds the backend, so that a
 * repository's keyv namespaces are plain fields (`readonly #records = this.backend.keyv('users')`)
 * rather than a constructor that assigns each one.
 */
export abstract class StoreRepository {
  protected constructor(protected readonly backend: StoreBackend) {}
}
