import type { FastifyInstance } from 'fastify';
import { findPrice, quotaUnitsPerUsd } from '../../core/billing/pricing.js';
import type { PriceConfig } from '../../core/config/config-schema.js';
import type { PipelineServices } from '../../core/pipeline/pipeline-services.js';
import { servedRoutes } from '../../core/routing/served-routes.js';

/** One served model as `GET /api/pricing` lists it. */
export interface PricedModel {
  model_name: string;
  /** The groups with a channel that lists the model. */
  enable_groups: string[];
  /** By group: the routes the model is called on there, as `METHOD path` (as `/v1/models` lists them). */
  routes: Record<string, string[]>;
  /** The price in USD before the group's ratio, as the config or the shipped catalog sets it; null when nothing prices it. */
  price: PriceConfig | null;
  /** `priced`; `free` (no price, and `billing.allow_free_models` on); `unpriced` (no price: requests are refused with `model_price_missing`). */
  billing: 'priced' | 'free' | 'unpriced';
}

/**
 * `GET /api/pricing` (any signed-in user): every model the channels serve, in which groups,
 * on which routes, at which price in USD, and each group's ratio, so the console can show
 * what each token may call and what it costs. Figures are computed once per config in force
 * (`state.current`, which a reload swaps), on the first request after it.
 */
export async function pricingRoutes(app: FastifyInstance, options: { state: { readonly current: PipelineServices } }): Promise<void> {
  let computed: { for: PipelineServices; data: unknown } | undefined;
  app.get('/api/pricing', { config: { auth: 'login' } }, async () => {
    const services = options.state.current;
    if (computed?.for !== services) computed = { for: services, data: pricingOf(services) };
    return { success: true, message: '', data: computed.data };
  });
}

/** The figures of `GET /api/pricing` under one config. */
function pricingOf({ config, catalog, channels }: PipelineServices) {
  const groups = Object.entries(config.groups).map(([name, group]) => ({ name, ratio: group.ratio }));
  const modelNames = catalog.list(groups.map((group) => group.name));
  const models: PricedModel[] = modelNames.map((model) => {
    const enabled = groups.map((group) => group.name).filter((group) => catalog.serves([group], model));
    const price = findPrice(config, model) ?? null;
    return {
      model_name: model,
      enable_groups: enabled,
      routes: Object.fromEntries(enabled.map((group) => [group, servedRoutes(channels, [group], catalog.resolve(model))])),
      price,
      billing: price !== null ? 'priced' : config.billing.allow_free_models ? 'free' : 'unpriced',
    };
  });
  return { quota_per_usd: quotaUnitsPerUsd, groups, auto_groups: config.auto_groups, models };
}
