import type { GatewayError } from '../../errors/gateway-error.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { InvocationOutcome } from '../operation-invocation.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { KeptRefusal, RequestContext } from '../request-context.js';

/**
 * Refusals and `fallbacks_on: [content_filter]`. An upstream that stops for its content filter
 * before any content (an answer the provider marks `contentFiltered`, a stream whose decoder
 * reported `content_filter` and no content, or a `prompt_blocked` error) has refused: with the
 * option set and a fallback model left, the next model is tried, as after a retryable failure.
 * The refusal is kept meanwhile: when no fallback answers, the client gets it (the answer, or
 * the `prompt_blocked` error), as it would have without fallbacks; when one does, it is let go
 * and costs the client nothing. The last model's refusal has nothing left to try, so it is
 * answered at once, as today: a chain refused throughout ends as a request without fallbacks.
 */

/** True when a refusal of the current model moves the request on: the option is set, a fallback model is left, the client still waits. */
export function refusalFallsBack(context: RequestContext, services: PipelineServices): boolean {
  return context.fallbacks.length > 0 && services.config.fallbacks_on.includes('content_filter') && !context.invocation.clientSignal.aborted;
}

/** True for a failure that is a refusal the next fallback model may answer instead (see {@link refusalFallsBack}). */
export function isFallbackRefusal(failure: GatewayError, services: PipelineServices): boolean {
  return (failure.code === 'content_filtered' || failure.code === 'prompt_blocked') && services.config.fallbacks_on.includes('content_filter');
}

/**
 * Keeps the current model's refusal while its fallbacks are tried: an answer (`deliver`, after
 * its attempt was recorded as refused) or a blocked prompt's error. Only the first is kept: a
 * later model's refusal is either answered at once (the last model) or let go.
 */
export function keepRefusal(context: RequestContext, refusal: Pick<KeptRefusal, 'error' | 'deliver' | 'release'>): void {
  if (context.refusal !== undefined) {
    refusal.release?.();
    return;
  }
  context.refusal = { model: context.model, price: context.price, translations: context.translations, ...refusal };
}

/**
 * The attempt recorded as refused (`content_filtered`) serves the request after all: its
 * record becomes the success, moved last (where the log line, the usage record and the
 * settlement read the channel that served), and the attempt is the one that served.
 */
export function refusalServed(context: RequestContext, attempt: ChannelAttempt, recordIndex: number): void {
  const [record] = context.attempts.splice(recordIndex, 1);
  if (record !== undefined) context.attempts.push({ channel: record.channel, group: record.group, outcome: 'success', milliseconds: record.milliseconds, translator: record.translator });
  context.served = attempt;
}

/**
 * After every fallback failed: the kept refusal, under the model it came from, as the answer
 * (undefined, and the blocked prompt's error as the failure, for a blocked prompt). Undefined,
 * with nothing delivered, when the client has gone.
 */
export async function answerKeptRefusal(context: RequestContext): Promise<InvocationOutcome | undefined> {
  const kept = context.refusal;
  if (kept === undefined) return undefined;
  context.refusal = undefined;
  if (context.invocation.clientSignal.aborted) {
    kept.release?.();
    return undefined;
  }
  context.model = kept.model;
  context.price = kept.price;
  context.translations = kept.translations;
  if (kept.deliver === undefined) {
    if (kept.error !== undefined) context.failure = kept.error;
    return undefined;
  }
  context.failure = undefined;
  return kept.deliver();
}

/** A fallback answered: the kept refusal is let go. */
export function releaseKeptRefusal(context: RequestContext): void {
  context.refusal?.release?.();
  context.refusal = undefined;
}
