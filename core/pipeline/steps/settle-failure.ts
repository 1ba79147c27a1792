import { promptOf } from '../../billing/fallback-usage.js';
import { emptyUsage } from '../../contracts/usage.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { settle } from './settle.js';

/**
 * Settle, for a request no channel answered. A client that left while an upstream was
 * working on its request pays for the prompt (the upstream bills what it read); otherwise
 * nothing was delivered and the whole reservation is refunded.
 */
export async function settleFailure(context: RequestContext, services: PipelineServices): Promise<void> {
  const abandoned = context.invocation.clientSignal.aborted ? context.attempts.find((attempt) => attempt.outcome === 'aborted') : undefined;
  if (abandoned === undefined) {
    await Promise.all([context.reservation?.refund(), context.admission.settle(emptyUsage('estimated')), context.slot.release()]);
    return;
  }
  context.usage = promptOf(context.invocation.estimate);
  await settle(context, services, abandoned.group);
}
