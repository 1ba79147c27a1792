import type { TaskAccepted } from '../../contracts/provider/operation-results.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { InvocationOutcome } from '../operation-invocation.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { unitsOf } from './price-request.js';
import { usageRecordOf } from './record-usage.js';
import { writeLogLine } from './write-log-line.js';

/**
 * Detach, in place of settle for a long-running task (a video): the task settles when it
 * finishes, maybe in another process, so the reservation's hold goes with the task record the
 * caller stores, with what the task costs if it succeeds, and so does its usage record, which
 * the task writes when it settles. The submission's concurrency slot is freed: a task's life
 * is not a request in flight.
 */
export function detachHold(context: RequestContext, services: PipelineServices, attempt: ChannelAttempt, accepted: TaskAccepted): InvocationOutcome {
  const { reservation } = context;
  if (reservation === undefined) throw new Error('a task is accepted only after its quota is reserved');
  writeLogLine(context, 'accepted');
  void context.slot.release();
  const unitsIfSucceeded = unitsOf(services.config, context.price, accepted.usage, attempt.group);
  // What the task is billed by unless the upstream reports otherwise when it ends.
  context.usage = accepted.usage;
  return {
    kind: 'task',
    accepted,
    channel: attempt.channel.name,
    group: attempt.group,
    hold: reservation.detach(),
    unitsIfSucceeded,
    // The record the task writes when it settles: the submission as it went, with what a success costs.
    usage: services.usage === undefined ? undefined : { ...usageRecordOf(context, services.usage.nowSeconds(), 'accepted'), quota: unitsIfSucceeded },
  };
}
