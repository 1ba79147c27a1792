import type { OperationHandler, OperationResult } from '../../contracts/provider/operation-results.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { RequestContext } from '../request-context.js';
import type { ChannelRequest } from './translate-request.js';

/** Call: asks the attempt's channel for the (translated) operation; its abort signal is the attempt's. */
export async function callUpstream(context: RequestContext, attempt: ChannelAttempt, translated: ChannelRequest): Promise<OperationResult> {
  const { channel } = attempt;
  const { invocation } = context;
  const handler = channel.provider.operations[translated.operation] as OperationHandler<unknown>;
  return handler({
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
