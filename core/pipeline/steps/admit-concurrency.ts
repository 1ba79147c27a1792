import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * Concurrency limits, after the rate limits and before quota: the request takes its slot
 * among the requests in flight of its key and group, once for all the channels it may try,
 * in the group it is routed in. {@link releaseSlot} frees it when the request ends.
 */
export async function admitConcurrency(context: RequestContext, services: PipelineServices): Promise<void> {
  if (services.concurrency === undefined) return;
  const group = context.firstAttempt?.group ?? context.groups[0] ?? 'default';
  context.slot = await services.concurrency.admit({ tokenId: context.token.id, group, operation: context.operation, logger: context.invocation.logger });
}
