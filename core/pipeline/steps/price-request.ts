import { costUnits, groupRatioOf, priceOfModel } from '../../billing/pricing.js';
import type { GatewayConfig, PriceConfig } from '../../config/config-schema.js';
import type { Usage } from '../../contracts/usage.js';
import type { RequestContext } from '../request-context.js';

/** Price: the model's price (a model without one is refused when billing requires a price). */
export function priceRequest(context: RequestContext, config: GatewayConfig): void {
  // The name the client called: an alias with a price of its own bills at it, any other as its model.
  context.price = priceOfModel(config, context.requestedModel);
}

/** The quota units `usage` costs at `price` in `group`. */
export function unitsOf(config: GatewayConfig, price: PriceConfig | undefined, usage: Usage, group: string): number {
  return costUnits(price, usage, groupRatioOf(config, group));
}

/** The quota units `usage` of `model` costs in `group`: for a video task, settled after its request ended. */
export function unitsOfModel(config: GatewayConfig, model: string, usage: Usage, group: string): number {
  return unitsOf(config, priceOfModel(config, model), usage, group);
}
