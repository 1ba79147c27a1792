import type { PriceConfig } from '../config/config-schema.js';
import type { Usage } from '../contracts/usage.js';

/** Quota units that equal one US dollar. */
export const quotaUnitsPerUsd = 500_000;

/** What besides the usage decides a price. */
export interface CostOptions {
  /** The output resolution (such as `1080p`), which selects a `resolution_multipliers` entry for `per_second`. */
  resolution?: string;
}

const count = (value: number | undefined) => (value !== undefined && Number.isFinite(value) && value > 0 ? value : 0);

/**
 * What `usage` costs in US dollars at `price`, every price key summed: text tokens per
 * million (cached prompt tokens at `cached_input_per_mtok`, which defaults to
 * `input_per_mtok`; completion tokens with reasoning), `per_call` once, `per_image` per
 * image, `per_second` per second times the resolution's multiplier, `per_1k_chars` per
 * thousand characters and `per_minute` per minute.
 */
export function usdOfUsage(price: PriceConfig, usage: Usage, options: CostOptions = {}): number {
  const promptTokens = count(usage.inputTokens);
  const cachedTokens = Math.min(count(usage.cachedInputTokens), promptTokens);
  const inputPerMillion = price.input_per_mtok ?? 0;
  const textPerMillion =
    (promptTokens - cachedTokens) * inputPerMillion +
    cachedTokens * (price.cached_input_per_mtok ?? inputPerMillion) +
    count(usage.outputTokens) * (price.output_per_mtok ?? 0);
  const resolution = options.resolution ?? usage.resolution;
  const resolutionMultiplier = resolution === undefined ? 1 : (price.resolution_multipliers?.[resolution] ?? 1);
  return (
    textPerMillion / 1_000_000 +
    (price.per_call ?? 0) +
    (price.per_image ?? 0) * count(usage.images) +
    (price.per_second ?? 0) * count(usage.seconds) * resolutionMultiplier +
    ((price.per_1k_chars ?? 0) * count(usage.characters)) / 1000 +
    (price.per_minute ?? 0) * count(usage.minutes)
  );
}

/**
 * Quota units for `usage` at `price` under a group's ratio:
 * `ceil(USD × 500000 × groupRatio)`. An absent price (a free model) costs 0.
 */
export function costUnits(price: PriceConfig | undefined, usage: Usage, groupRatio: number, options: CostOptions = {}): number {
  if (price === undefined) return 0;
  const units = usdOfUsage(price, usage, options) * quotaUnitsPerUsd * groupRatio;
  // Decimal prices are inexact in binary (0.04 × 3 × 500000 is 60000.00000000001), so the
  // product is rounded to 12 significant digits before rounding up: float noise must not
  // cost a unit, while any real fraction of a unit still does.
  return Math.ceil(Number(units.toPrecision(12)));
}
