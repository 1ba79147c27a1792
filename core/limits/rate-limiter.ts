import type { RateLimitsConfig } from '../config/config-schema.js';
import type { OperationName } from '../contracts/provider/operation-call.js';
import type { ProviderLogger } from '../contracts/provider/provider-host.js';
import type { Usage } from '../contracts/usage.js';
import { rateLimited } from '../errors/error-codes.js';
import type { GatewayError } from '../errors/gateway-error.js';
import type { RateDraw, RateMark, StoreBackend } from '../store/store-backend.js';
import { BucketAdmission, unlimitedAdmission, type RateAdmission } from './rate-admission.js';
import { hasRateLimits, rateLimitBucketsFor, rateLimitWindowMilliseconds, type RateLimitBucket } from './rate-limit-buckets.js';
import { countsTowardRateLimits } from './rate-limited-operations.js';
import { rateLimitTokensOf } from './rate-limit-tokens.js';

/** What the limiter needs to know of a request. */
export interface RateLimitedRequest {
  tokenId: number;
  /** The group the request is routed in. */
  group: string;
  operation: OperationName;
  /** The usage the request is estimated at: its tokens are held until it settles. */
  estimate: Usage;
  logger: ProviderLogger;
}

/**
 * The one place rate limits are enforced (`rate_limits` in the config), called by the pipeline
 * before quota is reserved. Each limit is a bucket in the store that holds a minute's worth
 * and refills continuously (the generic cell rate algorithm): a request draws one unit from
 * each requests-per-minute bucket and its estimated tokens from each tokens-per-minute bucket,
 * from the token's buckets and its group's together, all or nothing, so a refused request
 * takes nothing. Once the request settles, its tokens are corrected to the real usage. On
 * Redis the buckets are shared by every instance and exact; on SQLite by the processes on the
 * file; in memory they are the process's own. When the store fails, the request fails with
 * 503 before any upstream is called, as quota does: it could not be billed either.
 */
export class RateLimiter {
  readonly #backend: StoreBackend;
  readonly #limits: RateLimitsConfig;
  readonly #enabled: boolean;

  constructor(backend: StoreBackend, limits: RateLimitsConfig) {
    this.#backend = backend;
    this.#limits = limits;
    this.#enabled = hasRateLimits(limits);
  }

  /** Admits the request or throws 429 `rate_limit_exceeded` with `Retry-After`: the seconds until every bucket it needs has room. */
  async admit(request: RateLimitedRequest): Promise<RateAdmission> {
    if (!this.#enabled || !countsTowardRateLimits(request.operation)) return unlimitedAdmission;
    const buckets = rateLimitBucketsFor(this.#limits, request.tokenId, request.group);
    if (buckets.length === 0) return unlimitedAdmission;
    const tokens = rateLimitTokensOf(request.estimate);
    const draws: RateDraw[] = buckets.map((bucket) => ({
      key: `limit:${bucket.key}`,
      // A request estimated above a whole minute's tokens still passes once the bucket is
      // full, and its real usage is then counted in full: refusing it would refuse forever.
      amount: bucket.measure === 'requests' ? 1 : Math.min(tokens, bucket.perMinute),
      capacity: bucket.perMinute,
      windowMilliseconds: rateLimitWindowMilliseconds,
    }));
    const result = await this.#backend.drawRates(draws);
    if (!result.granted) throw refusal(buckets[result.refused] as RateLimitBucket, draws[result.refused] as RateDraw, result.retryInMilliseconds);
    return new BucketAdmission(
      this.#backend,
      buckets.map((bucket, index) => ({ bucket, draw: draws[index] as RateDraw, mark: result.marks[index] as RateMark })),
      request.logger,
    );
  }
}

/** The 429 for a refused draw, saying which limit and when to come back. */
function refusal(bucket: RateLimitBucket, draw: RateDraw, retryInMilliseconds: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(retryInMilliseconds / 1000));
  const limit =
    bucket.measure === 'requests'
      ? `${bucket.holder} allows ${bucket.perMinute} requests per minute`
      : `${bucket.holder} allows ${bucket.perMinute} tokens per minute, and this request needs room for ${draw.amount} (its prompt and output limit)`;
  return rateLimited(`rate limit reached: ${limit}; retry in ${seconds} s`, seconds);
}
