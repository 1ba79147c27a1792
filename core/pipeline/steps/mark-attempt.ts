import { internalError } from '../../errors/error-codes.js';
import { GatewayError, type UpstreamFault } from '../../errors/gateway-error.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { AttemptRecord, RequestContext } from '../request-context.js';
import { stopReason } from './stop-reason.js';

function record(context: RequestContext, attempt: ChannelAttempt, outcome: AttemptRecord['outcome'], error?: GatewayError): void {
  context.attempts.push({ channel: attempt.channel.name, group: attempt.group, outcome, status: error?.statusCode, code: error?.code, milliseconds: Date.now() - attempt.startedAt, translator: attempt.translator });
}

/** The channel answered: its circuit counts a success, and the try is recorded as the one that served the request. */
export function attemptSucceeded(context: RequestContext, services: PipelineServices, attempt: ChannelAttempt): void {
  services.breaker.recordSuccess(attempt.channel.name);
  record(context, attempt, 'success');
  context.served = attempt;
}

/**
 * The try failed with `error`: the attempt is detached and recorded, and the channel's circuit
 * marked a failure only for the channel's own fault (`error.fault`), neither a failure nor a
 * success for a retryable fault of the request's, a success for a refusal of the request.
 * Returns the error the request fails with if no later channel answers (the client's
 * leaving, or the shutdown, wins over the upstream's error).
 */
export function attemptFailed(context: RequestContext, services: PipelineServices, attempt: ChannelAttempt, error: unknown): GatewayError {
  attempt.detach();
  const stopped = stopReason(context, services);
  const channel = attempt.channel.name;
  if (!GatewayError.is(error)) {
    // Provider code reports every upstream fault as a GatewayError; anything else it
    // throws is the gateway's own bug, which another channel would hit as well. It is no
    // mark against this channel: a client able to trigger it must not open the circuit.
    services.breaker.release(channel);
    const bug = internalError(error);
    record(context, attempt, stopped === undefined ? 'failed' : 'aborted', bug);
    return stopped ?? bug;
  }
  if (stopped !== undefined) {
    services.breaker.release(channel);
    record(context, attempt, 'aborted', error);
    return stopped;
  }
  // A plugin bundling an older copy of core makes errors without `fault`: judged as that copy would.
  const fault = (error.fault as UpstreamFault | undefined) ?? (error.retryable ? 'channel' : 'request');
  if (fault === 'channel') {
    services.breaker.recordFailure(channel);
    record(context, attempt, 'failed', error);
  } else if (error.retryable) {
    // Not the channel's failure, but not proof that it works either (a model the upstream
    // does not know): the circuit counts nothing, and the next channel is tried.
    services.breaker.release(channel);
    record(context, attempt, 'refused', error);
  } else {
    // The channel answered; the request itself was refused. That is no mark against the channel.
    services.breaker.recordSuccess(channel);
    record(context, attempt, 'refused', error);
  }
  return error;
}
