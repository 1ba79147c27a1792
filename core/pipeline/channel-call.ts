import type { OperationName } from '../contracts/provider/operation-call.js';
import type { OperationResults } from '../contracts/operation-results.js';
import type { Channel } from '../routing/channel.js';
import { invokeOperation } from './invoke-operation.js';
import { PreparedRequests } from './prepared-requests.js';

/** One question to one named channel. */
export interface ChannelQuestion<Name extends OperationName = OperationName> {
  channel: string;
  operation: Name;
  request: unknown;
  model: string;
  signal: AbortSignal;
  requestId: string;
}

/** Asks one named channel; undefined when that channel is no longer configured or lacks the operation. */
export type CallChannel = <Name extends OperationName>(question: ChannelQuestion<Name>) => Promise<OperationResults[Name] | undefined>;

/**
 * Calls an operation on one named channel, without routing, quota or failover: how a video
 * task (or a face validation session) is asked about on the channel that accepted it. Those
 * questions are free and belong to a request already billed, so no step of the model request
 * pipeline applies. `channels` gives the channels in force when a question is asked.
 */
export function channelCaller(channels: () => readonly Channel[]): CallChannel {
  return async ({ channel: name, operation, request, model, signal, requestId }) => {
    // The channels in force now: a task accepted before a reload is asked on its channel as it is now configured.
    const channel = channels().find((candidate) => candidate.name === name);
    if (channel === undefined || channel.provider.operations[operation] === undefined) return undefined;
    return invokeOperation(channel, operation, { request: new PreparedRequests(operation, request).of(channel), model, upstreamModel: channel.upstreamModel(model), stream: false, channel: channel.context(), options: channel.options, signal, requestId });
  };
}
