import type { GatewayError } from '../../errors/gateway-error.js';
import { clipped } from '../../errors/client-text.js';
import { modelLabel } from '../model-label.js';
import type { PipelineServices } from '../pipeline-services.js';
import { answeredBy, type RequestContext } from '../request-context.js';

/** A model name is short; a longer one is the client's invention, cut for the span. */
const maxSpanModelCharacters = 200;

/** Tells the observer (metrics, traces) how the request ended: answered (the headers of a stream), or its error. */
export function observeRequest(context: RequestContext, services: PipelineServices, failure: GatewayError | undefined): void {
  const { observer } = services;
  if (observer === undefined) return;
  const { attempts, invocation } = context;
  const { startedAt } = context.timings;
  const channel = attempts.at(-1)?.channel;
  observer.requestFinished({
    operation: context.operation,
    // The config's entry, not the client's text: made-up names must not each add a series.
    model: modelLabel(services.channels, context.model, channel),
    requestedModel: clipped(context.model, maxSpanModelCharacters),
    channel: channel ?? 'none',
    outcome: failure === undefined ? 'success' : failure.code,
    status: failure === undefined ? 200 : failure.statusCode,
    attempts,
    milliseconds: Date.now() - startedAt,
    streamed: invocation.stream,
    translator: answeredBy(context),
    overBudget: context.reservation?.overBudget,
    startedAt,
    requestId: invocation.requestId,
  });
}
