import type { GatewayConfig, PriceConfig } from '../config/config-schema.js';
import { matchesModelPattern } from '../routing/model-pattern.js';

/**
 * The price entry for `model`: the key equal to the model name, else the longest key with
 * `*` that matches it (the most specific pattern; among equally long ones, the first listed).
 * Undefined when no key applies.
 */
export function lookUpPrice(pricing: GatewayConfig['pricing'], model: string): PriceConfig | undefined {
  if (Object.hasOwn(pricing, model)) return pricing[model];
  let bestKey: string | undefined;
  for (const key of Object.keys(pricing)) {
    if (!key.includes('*') || !matchesModelPattern(key, model)) continue;
    if (bestKey === undefined || key.length > bestKey.length) bestKey = key;
  }
  return bestKey === undefined ? undefined : pricing[bestKey];
}
