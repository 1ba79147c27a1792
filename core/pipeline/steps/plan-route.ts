import type { PinnedChannel } from '../../routing/plan-attempts.js';
import { planAttempts, type Attempt } from '../../routing/plan-attempts.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * Route: the token's groups, the channel a continuation or a remix is pinned to, and the
 * channels to try in routing order. The first is planned now, so a model no channel serves is
 * refused (404), and one whose channels all cool down is refused (503), before its price is
 * looked up or any quota is touched.
 */
export async function planRoute(context: RequestContext, services: PipelineServices): Promise<void> {
  const { token, invocation } = context;
  context.groups = services.catalog.groupsOf(token.group);
  context.plan = planAttempts(
    services.channels,
    {
      model: context.model,
      operation: context.operation,
      groups: context.groups,
      crossGroupRetry: token.group === 'auto' && token.cross_group_retry,
      maxAttempts: services.config.routing.max_attempts,
      // Only a continuation waits on the store; every other request plans at once.
      pinned:
        invocation.pinTo !== undefined
          ? { name: invocation.pinTo, exclusive: true }
          : invocation.affinityKey === undefined
            ? undefined
            : await pinnedChannel(invocation.affinityKey, services),
    },
    services.breaker,
  );
  context.firstAttempt = nextAttempt(context);
}

/** The next channel of the plan, undefined when the plan is over. */
export function nextAttempt(context: RequestContext): Attempt | undefined {
  const next = context.plan?.next();
  return next === undefined || next.done === true ? undefined : next.value;
}

/** The channel an affinity key pins the request to, when the key is known. */
async function pinnedChannel(affinityKey: string, services: PipelineServices): Promise<PinnedChannel | undefined> {
  const name = await services.affinity.channelOf(affinityKey);
  return name === undefined ? undefined : { name, exclusive: services.config.routing.affinity.on_channel_down === 'fail' };
}
