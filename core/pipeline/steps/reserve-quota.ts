import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { unitsOf } from './price-request.js';

/** Quota: holds what the estimate costs on the token (402 when it has not that much left). */
export async function reserveQuota(context: RequestContext, services: PipelineServices): Promise<void> {
  const units = unitsOf(services.config, context.price, context.estimate, context.groups[0] ?? 'default');
  context.reservation = await services.ledger.reserve(context.token, units);
}
