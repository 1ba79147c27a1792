import { responseOfTerminalEvent } from '../../conversations/responses-conversation-store.js';
import type { ResponsesRequest } from '../../contracts/responses-request.js';
import type { Channel } from '../../routing/channel.js';
import type { PumpedEvent } from '../../streaming/stream-pump.js';
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
 * The hold of a translated Responses stream (the pump's `holdBefore`): its terminal event
 * starts the write of the conversation it carries, as {@link rememberConversation} keeps a
 * JSON answer's, and is held back from the client until the write is over. A client such as
 * Codex sends its follow-up with `previous_response_id` the moment it reads
 * `response.completed`; released earlier, that follow-up could reach the store (Redis,
 * PostgreSQL, another process) before the conversation does and be answered 404. A failed
 * write is logged and the event goes out all the same. Undefined where nothing is kept.
 */
export function conversationHold(context: RequestContext, services: PipelineServices): ((event: PumpedEvent) => Promise<void> | undefined) | undefined {
  if (!continues(context, services)) return undefined;
  return (event) => {
    const response = responseOfTerminalEvent(event);
    return response === undefined ? undefined : rememberConversation(context, services, response);
  };
}
