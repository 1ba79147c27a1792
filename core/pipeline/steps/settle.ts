import { modelLabel } from '../model-label.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { unitsOf } from './price-request.js';

/**
 * Settle: charges the request's usage (`context.usage`) at its price in `group`, giving back
 * the rest of the reservation, counts its real tokens against the rate limits, and frees its
 * concurrency slot. The reservation takes only the first settle or refund, so a request is
 * settled exactly once.
 */
export async function settle(context: RequestContext, services: PipelineServices, group: string): Promise<void> {
  const { usage, reservation } = context;
  if (usage === undefined || reservation === undefined) throw new Error('settle needs the usage and the reservation');
  const units = unitsOf(services.config, context.price, usage, group);
  context.units = units;
  await Promise.all([reservation.settle(units), context.admission.settle(usage), context.slot.release()]);
  services.observer?.settled({ model: modelLabel(services.channels, context.model, context.attempts.at(-1)?.channel), inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, units });
}

/** Settles a request whose answer is already on its way; a failure is logged, as nobody is left to tell. */
export function settleInBackground(context: RequestContext, services: PipelineServices, group: string): void {
  void settle(context, services, group).catch((error: unknown) => context.invocation.logger.error({ err: error }, 'could not settle a streamed request'));
}
