import type { RateLimitsConfig } from '../config/config-schema.js';

/** Every limit is per minute; a bucket refills from empty to full in this time. */
export const rateLimitWindowMilliseconds = 60_000;

/** One configured limit that applies to a request. */
export interface RateLimitBucket {
  /** The store key of the bucket. */
  key: string;
  /** What the bucket counts: one per request, or the request's tokens. */
  measure: 'requests' | 'tokens';
  /** How many the bucket allows per minute. */
  perMinute: number;
  /** Who shares the bucket, as the client reads it in a refusal: `this API key`, `group "vip"`. */
  holder: string;
}

/**
 * The buckets a request of token `tokenId` in `group` draws on: the per-token limits of
 * `rate_limits.tokens`, then the group's limits of `rate_limits.groups`. A limit of 0 adds
 * no bucket.
 */
export function rateLimitBucketsFor(limits: RateLimitsConfig, tokenId: number, group: string): RateLimitBucket[] {
  const buckets: RateLimitBucket[] = [];
  const add = (scope: string, holder: string, configured: RateLimitsConfig['tokens'] | undefined) => {
    if (configured === undefined) return;
    if (configured.requests_per_minute > 0) buckets.push({ key: `${scope}:requests`, measure: 'requests', perMinute: configured.requests_per_minute, holder });
    if (configured.tokens_per_minute > 0) buckets.push({ key: `${scope}:tokens`, measure: 'tokens', perMinute: configured.tokens_per_minute, holder });
  };
  add(`token:${tokenId}`, 'this API key', limits.tokens);
  add(`group:${group}`, `group "${group}"`, limits.groups[group]);
  return buckets;
}

/** True when the config sets any limit at all, so a gateway without limits skips the limiter entirely. */
export function hasRateLimits(limits: RateLimitsConfig): boolean {
  return [limits.tokens, ...Object.values(limits.groups)].some((limit) => limit.requests_per_minute > 0 || limit.tokens_per_minute > 0);
}
