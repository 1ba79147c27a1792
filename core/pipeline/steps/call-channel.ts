import type { OperationResults } from '../../contracts/operation-results.js';
import type { PipelineOperation } from '../operation-invocation.js';
import { invokeOperation } from '../invoke-operation.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { RequestContext } from '../request-context.js';
import type { ChannelRequest } from './translate-request.js';

/** Call: asks the attempt's channel for the (translated) operation; its abort signal is the attempt's. */
export async function callChannel(context: RequestContext, attempt: ChannelAttempt, translated: ChannelRequest): Promise<OperationResults[PipelineOperation]> {
  const { channel } = attempt;
  const { invocation } = context;
  return invokeOperation(channel, translated.operation, {
    request: translated.request,
    model: context.model,
    upstreamModel: channel.upstreamModel(context.model),
    stream: invocation.stream,
    channel: channel.context(),
    options: channel.options,
    signal: attempt.upstreamAbort.signal,
    requestId: invocation.requestId,
  });
}
