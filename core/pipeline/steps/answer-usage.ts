import { usageOrEstimate } from '../../billing/fallback-usage.js';
import type { Usage } from '../../contracts/usage.js';
import type { StreamOutcome } from '../../streaming/stream-pump.js';
import type { RequestContext } from '../request-context.js';

/** The usage to bill a whole (JSON) answer by: the upstream's, else the estimate with the answer's length as output. */
export function usageOfAnswer(context: RequestContext, reported: Usage | undefined, body: unknown): Usage {
  const { invocation } = context;
  return usageOrEstimate(reported, invocation.estimate, invocation.request, () => (typeof body === 'string' ? body : JSON.stringify(body)).length);
}

/**
 * The usage to bill a stream by: the upstream's last report (gx reports cumulative usage on
 * every chunk, so an aborted stream still has its usage so far), else an estimate of the
 * prompt plus the model output that was sent, flagged as estimated.
 */
export function usageOfStream(context: RequestContext, outcome: StreamOutcome): Usage {
  const { invocation } = context;
  return usageOrEstimate(outcome.usage, invocation.estimate, invocation.request, () => outcome.outputCharacters);
}
