import { emptyUpstreamAnswer, type TranslationContext, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer } from '../../core/kit/index.js';
import { chatCompletionSchema, chatSignatures } from '../shared/chat-answer.js';
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
 * Puts `signature` on a thinking block right before the block about to be added: the last
 * block when it is a thinking block still without one (the thoughts), else a thinking block
 * of its own with no text, as Anthropic writes one whose thoughts are not shown. Back in,
 * `toChatMessages` gives a thinking block's signature to the block after it.
 */
function signNext(content: MessagesContent[], signature: string): void {
  const last = content.at(-1);
  if (last?.type === 'thinking' && last.signature === '') last.signature = signature;
  else content.push({ type: 'thinking', thinking: '', signature });
}

/**
 * The Messages answer for a served chat completion (parsed: the pipeline parses the JSON text
 * a passthrough provider such as gp answers): the first choice's thoughts as a thinking block, its text
 * (or refusal) as a text block, its tool calls as tool_use blocks with their ids and the
 * arguments parsed; the stop reason mapped; `usage` from the billed usage; the id `msg_…`
 * from the request id and the model the client named. The answer's signatures (the chat
 * `reasoning_details` a signing family such as gx writes) are the `signature` of a thinking
 * block right before the block each belongs to: a tool call's before its tool_use, the text's
 * before the text (a signature of text the answer has none of is left out); other thinking
 * blocks have an empty one, as every block of a family without signatures (gp).
 * @throws GatewayError 502 for a body that is not a chat completion, or has no choice.
 */
export function fromChatCompletion(body: unknown, usage: Usage, context: TranslationContext): MessagesAnswer {
  const parsed = chatCompletionSchema.safeParse(body);
  if (!parsed.success) throw invalidUpstreamAnswer('a chat completion', { cause: parsed.error });
  const choice = parsed.data.choices[0];
  if (choice === undefined) throw emptyUpstreamAnswer('the upstream answered a chat completion without any choice');

  const message = choice.message;
  const content: MessagesContent[] = [];
  const calls = (message.tool_calls ?? []).map((call, index) => ({ call, id: call.id ?? `${messageId(context)}_tool_${index}` }));
  const callIds = new Set(calls.map((entry) => entry.id));
  const signatures = chatSignatures(message.reasoning_details);
  const callSignatures = new Map(signatures.flatMap((signature) => (signature.id !== undefined && callIds.has(signature.id) ? [[signature.id, signature.data] as const] : [])));
  const textSignature = signatures.findLast((signature) => signature.id === undefined || !callIds.has(signature.id))?.data;

  const thoughts = message.reasoning_content ?? '';
  if (thoughts !== '') content.push({ type: 'thinking', thinking: thoughts, signature: '' });
  const text = (message.content ?? '') + (message.refusal ?? '');
  if (text !== '') {
    if (textSignature !== undefined) signNext(content, textSignature);
    content.push({ type: 'text', text });
  }
  for (const { call, id } of calls) {
    const signature = callSignatures.get(id);
    if (signature !== undefined) signNext(content, signature);
    content.push({ type: 'tool_use', id, name: call.function?.name ?? '', input: toolInput(call.function?.arguments ?? '') });
  }
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
