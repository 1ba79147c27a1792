import type { ProviderLogger } from '../contracts/provider/provider-host.js';
import type { Usage } from '../contracts/usage.js';
import type { RateDraw, RateMark, StoreBackend } from '../store/store-backend.js';
import type { RateLimitBucket } from './rate-limit-buckets.js';
import { rateLimitTokensOf } from './rate-limit-tokens.js';

/**
 * What a request holds of the rate limits from its admission until it has settled. Exactly
 * one of {@link settle} and {@link release} takes effect, once; neither ever rejects (a store
 * that fails to take a correction costs only that correction, and is logged).
 */
export interface RateAdmission {
  /**
   * Counts the request's real tokens in place of the estimate it was admitted with: what the
   * estimate held beyond them goes back, what they used beyond it is taken now. The request
   * itself stays counted.
   */
  settle(usage: Usage): Promise<void>;
  /** Gives back everything, the request included: for a request refused before any channel was called. */
  release(): Promise<void>;
}

const nothingToDo = Promise.resolve();

/** The admission of a request no limit applies to: one settled promise for every call, since nothing waits. */
export const unlimitedAdmission: RateAdmission = {
  settle: () => nothingToDo,
  release: () => nothingToDo,
};

/** One bucket an admission drew on, with what it drew and where the draw left the bucket. */
export interface AdmissionDraw {
  bucket: RateLimitBucket;
  draw: RateDraw;
  mark: RateMark;
}

/** A {@link RateAdmission} of draws on a store's rate buckets. */
export class BucketAdmission implements RateAdmission {
  readonly #backend: StoreBackend;
  readonly #draws: readonly AdmissionDraw[];
  readonly #logger: ProviderLogger;
  #closed = false;

  constructor(backend: StoreBackend, draws: readonly AdmissionDraw[], logger: ProviderLogger) {
    this.#backend = backend;
    this.#draws = draws;
    this.#logger = logger;
  }

  async settle(usage: Usage): Promise<void> {
    const tokens = rateLimitTokensOf(usage);
    await this.#close(({ bucket, draw }) => (bucket.measure === 'tokens' ? tokens - draw.amount : 0));
  }

  async release(): Promise<void> {
    await this.#close(({ draw }) => -draw.amount);
  }

  async #close(deltaOf: (draw: AdmissionDraw) => number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#draws.map(async (admitted) => {
        const delta = deltaOf(admitted);
        if (delta === 0) return;
        const { key, capacity, windowMilliseconds } = admitted.draw;
        try {
          await this.#backend.correctRate({ key, delta, capacity, windowMilliseconds, mark: admitted.mark });
        } catch (error) {
          this.#logger.warn({ err: error, bucket: admitted.bucket.key, delta }, 'could not correct a rate limit bucket');
        }
      }),
    );
  }
}
