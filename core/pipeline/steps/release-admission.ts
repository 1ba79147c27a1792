import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * For a request refused before any channel was called (no price, over a rate limit, out of
 * quota): the planned channel is never called, so a half-open circuit gets its probe back,
 * the rate limits give back what they counted, and the concurrency slot is freed.
 */
export async function releaseAdmission(context: RequestContext, services: PipelineServices): Promise<void> {
  if (context.firstAttempt !== undefined) services.breaker.release(context.firstAttempt.channel.name);
  await Promise.all([context.admission.release(), context.slot.release()]);
}
