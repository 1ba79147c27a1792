import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * Rate limits, before quota: a request over its limit touches no quota. They apply in the
 * group the request is routed in.
 */
export async function admitRate(context: RequestContext, services: PipelineServices): Promise<void> {
  if (services.limiter === undefined) return;
  const group = context.firstAttempt?.group ?? context.groups[0] ?? 'default';
  context.admission = await services.limiter.admit({ tokenId: context.token.id, group, operation: context.operation, estimate: context.estimate, logger: context.invocation.logger });
}
