import { emptyUpstreamAnswer, type TranslationContext, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer } from '../../core/kit/index.js';
import { chatCompletionSchema } from '../shared/chat-answer.js';
import { messageId, toMessagesStopReason, toMessagesUsage, toolInput, type MessagesStopReason, type MessagesUsage } from './messages-answer-parts.js';

/** One block of a Messages answer's `content`. */
export type MessagesContent =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** The Messages answer object. */
export interface MessagesAnswer {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesContent[];
  stop_reason: MessagesStopReason;
  stop_sequence: null;
  usage: MessagesUsage;
}

/**
 * The Messages answer for a served chat completion (parsed: the pipeline parses the JSON text
 * a passthrough provider such as gp answers): the first choice's thoughts as a thinking block, its text
 * (or refusal) as a text block, its tool calls as tool_use blocks with their ids and the
 * arguments parsed; the stop reason mapped; `usage` from the billed usage; the id `msg_…`
 * from the request id and the model the client named. A thinking block's `signature` is
 * empty: the chat format carries none (the gx chat dialect replays calls with its stand-in).
 * @throws GatewayError 502 for a body that is not a chat completion, or has no choice.
 */
export function fromChatCompletion(body: unknown, usage: Usage, context: TranslationContext): MessagesAnswer {
  const parsed = chatCompletionSchema.safeParse(body);
  if (!parsed.success) throw invalidUpstreamAnswer('a chat completion', { cause: parsed.error });
  const choice = parsed.data.choices[0];
  if (choice === undefined) throw emptyUpstreamAnswer('the upstream answered a chat completion without any choice');

  const message = choice.message;
  const content: MessagesContent[] = [];
  const thoughts = message.reasoning_content ?? '';
  if (thoughts !== '') content.push({ type: 'thinking', thinking: thoughts, signature: '' });
  const text = (message.content ?? '') + (message.refusal ?? '');
  if (text !== '') content.push({ type: 'text', text });
  (message.tool_calls ?? []).forEach((call, index) => {
    content.push({ type: 'tool_use', id: call.id ?? `${messageId(context)}_tool_${index}`, name: call.function?.name ?? '', input: toolInput(call.function?.arguments ?? '') });
  });
  return {
    id: messageId(context),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: toMessagesStopReason(choice.finish_reason),
    stop_sequence: null,
    usage: toMessagesUsage(usage),
  };
}
