import type { FastifyBaseLogger } from 'fastify';
import { inject } from '../di/dependency-injection.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import type { TokenRepository } from './token-repository.js';

/**
 * Collects tokens' last-access times in memory and writes them in one batch every
 * `flushMilliseconds`, so the hot path never writes per request. `close()` writes the rest.
 */
export class AccessTimeRecorder {
  readonly #tokens: TokenRepository;
  readonly #pending = new Map<number, number>();
  readonly #timer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  readonly #logger: FastifyBaseLogger;

  constructor(
    @inject(InjectionTokens.tokenRepository) tokens: TokenRepository,
    @inject(InjectionTokens.config) config: GatewayConfig,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
  ) {
    this.#tokens = tokens;
    this.#logger = logger;
    this.#timer = setInterval(() => void this.flush(), config.storage.access_time_flush_ms);
    this.#timer.unref();
  }

  /** Notes that the token was used now (Unix seconds). */
  touch(tokenId: number, nowSeconds: number): void {
    this.#pending.set(tokenId, nowSeconds);
  }

  /** Writes what has been collected; failed writes are kept for the next flush. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#pending.size === 0) return;
      const batch = new Map(this.#pending);
      this.#pending.clear();
      try {
        await this.#tokens.recordAccessTimes(batch);
      } catch (error) {
        for (const [id, time] of batch) if (!this.#pending.has(id)) this.#pending.set(id, time);
        this.#logger.warn({ err: error, tokens: batch.size }, 'could not record token access times; will retry');
      }
    });
    return this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
