import { formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { matchesModelPattern } from '../routing/model-pattern.js';
import { shippedPriceCatalog } from './price-catalog.js';
import { findPrice } from './pricing.js';

/** How to fix an unpriced model, said the same way by every problem. */
const fixes = 'add it under pricing, map it (model_map) to a priced model, or set billing.allow_free_models: true to serve unpriced models free';

/**
 * The models the channels serve (`models` entries and `model_map` keys) that nothing prices:
 * neither the operator's `pricing`, nor the price catalog, nor the model a `model_map` calls
 * ({@link findPrice}). Each is named once, at its first entry. A pattern is reported only when
 * no `pricing` key covers it and no catalog entry matches it, since a family pattern such as
 * `dsx-*` is priced model by model by the catalog.
 *
 * Unless `billing.allow_free_models` is on, `start` and `config check` refuse a config with any
 * of them: every call of such a model would be refused with `model_price_missing`. With free
 * models allowed they are warnings: the models are served free.
 */
export function unpricedModels(config: GatewayConfig, lineOf: (path: readonly PropertyKey[]) => number | undefined = () => undefined): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  const free = config.billing.allow_free_models;
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
      const line = lineOf(path);
      if (!model.includes('*')) {
        if (findPrice(config, model) !== undefined) continue;
        problems.push({
          path: where,
          message: free
            ? `"${model}" (channel ${provider.name}) has no price: it is served free (billing.allow_free_models)`
            : `"${model}" (channel ${provider.name}) has no price in pricing or the price catalog: ${fixes}`,
          line,
        });
        continue;
      }
      const coveredByPricing = Object.keys(config.pricing).some((key) => matchesModelPattern(key, model));
      if (coveredByPricing || catalogModels.some((catalogModel) => matchesModelPattern(model, catalogModel))) continue;
      problems.push({
        path: where,
        message: free
          ? `the pattern "${model}" (channel ${provider.name}) matches no model with a price: those models are served free (billing.allow_free_models)`
          : `the pattern "${model}" (channel ${provider.name}) matches no model with a price: add "${model}" under pricing, or set billing.allow_free_models: true to serve unpriced models free`,
        line,
      });
    }
  });
  return problems;
}
