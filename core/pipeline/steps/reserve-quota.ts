import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { unitsOf } from './price-request.js';

/** Quota: holds what the estimate costs on the token (402 when it has not that much left), at the dearest of the model and its fallbacks. */
export async function reserveQuota(context: RequestContext, services: PipelineServices): Promise<void> {
  const group = context.groups[0] ?? 'default';
  let units = unitsOf(services.config, context.price, context.estimate, group);
  for (const fallback of context.fallbacks) units = Math.max(units, unitsOf(services.config, fallback.price, context.estimate, group));
  context.reservation = await services.ledger.reserve(context.token, units);
}
