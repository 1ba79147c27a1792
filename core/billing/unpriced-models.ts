import { formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { matchesModelPattern } from '../routing/model-pattern.js';
import { shippedPriceCatalog } from './price-catalog.js';
import { findPrice } from './pricing.js';

/**
 * The models the channels serve (`models` entries and `model_map` keys) that nothing prices:
 * neither the operator's `pricing` nor the price catalog. Each is named once, at its first
 * entry. A pattern is reported only when no `pricing` key covers it and no catalog entry
 * matches it, since a family pattern such as `dsx-*` is priced model by model by the catalog.
 */
export function unpricedModelWarnings(config: GatewayConfig): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  const seen = new Set<string>();
  const free = config.billing.allow_free_models;
  const consequence = free ? 'it is served free (billing.allow_free_models)' : 'requests for it are refused with model_price_missing';
  const patternConsequence = free ? 'they are served free (billing.allow_free_models)' : 'requests for them are refused with model_price_missing';
  const catalogModels = config.billing.price_catalog ? Object.keys(shippedPriceCatalog().prices) : [];
  config.providers.forEach((provider, index) => {
    const entries = [
      ...provider.models.map((model, position) => ({ model, path: ['providers', index, 'models', position] })),
      ...Object.keys(provider.model_map).map((model) => ({ model, path: ['providers', index, 'model_map', model] })),
    ];
    for (const { model, path } of entries) {
      if (seen.has(model)) continue;
      seen.add(model);
      const where = formatYamlPath(path);
      if (!model.includes('*')) {
        if (findPrice(config, model) !== undefined) continue;
        warnings.push({
          path: where,
          message: `"${model}" (channel ${provider.name}) has no price in pricing or the price catalog: ${consequence}; add it under pricing`,
        });
        continue;
      }
      const coveredByPricing = Object.keys(config.pricing).some((key) => matchesModelPattern(key, model));
      if (coveredByPricing || catalogModels.some((catalogModel) => matchesModelPattern(model, catalogModel))) continue;
      warnings.push({
        path: where,
        message: `the pattern "${model}" (channel ${provider.name}) matches no model with a price: ${patternConsequence}; add "${model}" under pricing`,
      });
    }
  });
  return warnings;
}
