import { responseOfTerminalEvent } from '../../conversations/responses-conversation-store.js';
import type { ResponsesRequest } from '../../contracts/responses-request.js';
import type { StreamDecoder, StreamOutput } from '../../contracts/stream-decoder.js';
import type { Channel } from '../../routing/channel.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/** The conversation store serves only Responses requests: the one format whose conversations the gateway keeps. */
const continues = (context: RequestContext, services: PipelineServices): boolean => context.operation === 'responses' && services.conversations !== undefined;

/** Whose conversations a request reads and writes: the API key's user, so no user reaches another's. */
const ownerOf = (context: RequestContext): string => String(context.token.user_id);

/**
 * Continue the conversation: before a `responses` request is translated for `channel`, its
 * `previous_response_id` and `item_reference`s are put in from the conversation store, once
 * per request, so every translated channel gets the same whole conversation. A channel whose
 * provider serves Responses itself gets the client's request as it is (its upstream keeps the
 * conversation, and affinity sends the follow-up back there), so nothing is read for it.
 * @throws GatewayError 404 for an id the user has nothing kept under (unknown, expired, sent
 *   with `store: false`, another user's, or one a native channel answered).
 */
export async function expandConversation(context: RequestContext, services: PipelineServices, channel: Channel): Promise<void> {
  if (context.translatorRequest !== undefined || channel.translatorFor(context.operation) === undefined) return;
  const request = context.invocation.request;
  context.translatorRequest = continues(context, services) ? await services.conversations!.expand(request as ResponsesRequest, ownerOf(context)) : request;
}

/**
 * Keep the conversation a translated JSON answer ended: `response` (the translated Responses
 * object) under its id, with the expanded request's input. A failure of the store is logged:
 * the client still gets its answer, only a follow-up to it would not be found.
 */
export async function rememberConversation(context: RequestContext, services: PipelineServices, response: unknown): Promise<void> {
  if (!continues(context, services)) return;
  try {
    await services.conversations!.remember(context.translatorRequest as ResponsesRequest, response, ownerOf(context));
  } catch (error) {
    context.invocation.logger.error({ err: error }, 'the gateway failed to keep the conversation of a translated response');
  }
}

/**
 * `decoder` (a translated stream's) with the conversation its terminal event carries kept, as
 * {@link rememberConversation} keeps a JSON answer's. The decoder is synchronous, so the write
 * is started when the terminal event passes and not waited for: a store write is far quicker
 * than the client's round trip to its next request.
 */
export function rememberingConversation(context: RequestContext, services: PipelineServices, decoder: StreamDecoder): StreamDecoder {
  if (!continues(context, services)) return decoder;
  const watch = (outputs: StreamOutput[]): StreamOutput[] => {
    for (const output of outputs) {
      const response = responseOfTerminalEvent(output);
      if (response !== undefined) void rememberConversation(context, services, response);
    }
    return outputs;
  };
  return { push: (frame) => watch(decoder.push(frame)), end: () => watch(decoder.end()) };
}
