import type { GatewayError } from '../../errors/gateway-error.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/** Tells the observer (metrics, traces) how the request ended: answered (the headers of a stream), or its error. */
export function observeRequest(context: RequestContext, services: PipelineServices, failure: GatewayError | undefined): void {
  const { observer } = services;
  if (observer === undefined) return;
  const { attempts, invocation } = context;
  const { startedAt } = context.timings;
  // A model no channel serves is counted as `unknown`: made-up names must not each add a series.
  const served = attempts.length > 0 || services.channels.some((channel) => channel.serves(context.model, context.operation));
  observer.requestFinished({
    operation: context.operation,
    model: served ? context.model : 'unknown',
    channel: attempts.at(-1)?.channel ?? 'none',
    outcome: failure === undefined ? 'success' : failure.code,
    status: failure === undefined ? 200 : failure.statusCode,
    attempts,
    milliseconds: Date.now() - startedAt,
    streamed: invocation.stream,
    startedAt,
    requestId: invocation.requestId,
  });
}
