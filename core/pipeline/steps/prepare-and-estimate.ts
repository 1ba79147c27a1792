import type { Usage } from '../../contracts/usage.js';
import type { RequestContext } from '../request-context.js';
import { translateRequest } from './translate-request.js';

/**
 * Prepare and estimate: the usage to reserve for is the family's own estimate of its
 * prepared request when the first channel's provider has one, else the route's. Preparing
 * comes first, so the family refuses a request it cannot take (in `prepare`, or a version 1
 * plugin's estimate) before any quota is touched.
 */
export function prepareAndEstimate(context: RequestContext): void {
  const first = context.firstAttempt;
  if (first === undefined) return;
  const { operation, request } = translateRequest(context, first.channel);
  const estimate = first.channel.provider.estimate?.[operation] as ((request: unknown) => Usage) | undefined;
  context.estimate = estimate === undefined ? context.invocation.estimate : estimate(request);
}
