import type { PipelineOperation } from '../operation-invocation.js';
import type { Channel } from '../../routing/channel.js';
import type { RequestContext } from '../request-context.js';

/** The operation to call on a channel, and the request its provider receives. */
export interface ChannelRequest {
  operation: PipelineOperation;
  request: unknown;
}

/**
 * Translate: the place for a format translator between the operation the client called and
 * the one `channel`'s provider implements (a Responses request sent to a family that speaks
 * only chat completions, say). No translator exists yet, so this is the identity: a channel is
 * planned only when its provider implements the client's own operation, and it receives what
 * its plugin prepared of the client's request. A translator goes here, and translates the
 * answer back before it is delivered; the estimate reads the request through this step too.
 */
export function translateRequest(context: RequestContext, channel: Channel): ChannelRequest {
  return { operation: context.operation, request: context.prepared.of(channel) };
}
