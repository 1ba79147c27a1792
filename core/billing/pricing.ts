import type { GatewayConfig, PriceConfig } from '../config/config-schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import { lookUpPrice } from './price-lookup.js';
import { shippedPriceCatalog } from './price-catalog.js';

export { costUnits, quotaUnitsPerUsd, usdOfUsage, type CostOptions } from './cost-of-usage.js';
export { lookUpPrice } from './price-lookup.js';

/** 400 `model_price_missing`: the model has no entry under `pricing` and free models are not allowed. */
export function modelPriceMissing(model: string): GatewayError {
  return new GatewayError(
    400,
    'model_price_missing',
    `model "${model}" has no price; the operator must add "${model}" (or a pattern matching it) under pricing in the config, or set billing.allow_free_models`,
    { param: 'model' },
  );
}

/** What prices are looked up in: the operator's `pricing`, the catalog switch, and the channels' `model_map`s. */
export type PricingConfig = Pick<GatewayConfig, 'pricing' | 'billing'> & { providers?: GatewayConfig['providers']; aliases?: GatewayConfig['aliases'] };

/**
 * The price of `model`, or undefined when nothing prices it. The operator's `pricing` comes
 * first, exact key or pattern, so an operator's pattern beats a catalog entry for a model it
 * matches; the shipped price catalog (when `billing.price_catalog` is on) prices the rest.
 * A model priced by neither under its own name is priced by what the first channel mapping it
 * (`model_map`) calls upstream: that name in `pricing` or the catalog, or the catalog entry that
 * stands for that vendor model. An alias is priced by its own `pricing` entry, else as the model
 * it stands for.
 */
export function findPrice(config: PricingConfig, model: string): PriceConfig | undefined {
  return priceByName(config, model) ?? priceOfMappedModel(config, model) ?? priceOfAliasTarget(config, model);
}

/** An alias without a price of its own bills as the model it stands for (through a chain, with a cycle guard for configs not yet checked). */
function priceOfAliasTarget(config: PricingConfig, model: string, seen: readonly string[] = []): PriceConfig | undefined {
  const target = config.aliases?.[model];
  if (target === undefined || !Object.hasOwn(config.aliases ?? {}, model) || seen.includes(target)) return undefined;
  return priceByName(config, target) ?? priceOfMappedModel(config, target) ?? priceOfAliasTarget(config, target, [...seen, model]);
}

function priceByName(config: PricingConfig, model: string): PriceConfig | undefined {
  return lookUpPrice(config.pricing, model) ?? (config.billing.price_catalog ? lookUpPrice(shippedPriceCatalog().prices, model) : undefined);
}

function priceOfMappedModel(config: PricingConfig, model: string): PriceConfig | undefined {
  for (const provider of config.providers ?? []) {
    if (!Object.hasOwn(provider.model_map, model)) continue;
    const upstreamModel = provider.model_map[model] as string;
    // A key mapped to itself (a vendor's id served as is) was looked up by name already.
    const price =
      (upstreamModel === model ? undefined : priceByName(config, upstreamModel)) ??
      (config.billing.price_catalog ? shippedPriceCatalog().pricesByVendorModel[upstreamModel] : undefined);
    if (price !== undefined) return price;
  }
  return undefined;
}

/**
 * The price `model` is billed at ({@link findPrice}). Undefined means free, which only
 * happens when `billing.allow_free_models` is true; otherwise a model without a price throws
 * {@link modelPriceMissing}.
 */
export function priceOfModel(config: PricingConfig, model: string): PriceConfig | undefined {
  const price = findPrice(config, model);
  if (price === undefined && !config.billing.allow_free_models) throw modelPriceMissing(model);
  return price;
}

/** The ratio of a routing group; a token without a group bills as `default`, and a group the config no longer defines at 1. */
export function groupRatioOf(config: Pick<GatewayConfig, 'groups'>, group: string): number {
  return config.groups[group === '' ? 'default' : group]?.ratio ?? 1;
}
