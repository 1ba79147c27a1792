import { outputItemIdFor, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer, parseUpstreamAnswer, parseUpstreamJson } from '../../core/kit/index.js';
import { chatCompletionSchema, chatSignatures } from '../shared/chat-answer.js';
import { responseObject, statusForFinish, type ResponsesAnswerContext } from './responses-object.js';
import { messageItem, outputTextPart, reasoningItem, toResponsesLogprobs, toolCallItem, type MessagePart, type OutputItem } from './responses-output-items.js';
import { declaredTools } from './to-chat-tools.js';

/** The served body as JSON: a provider hands it on parsed, or as the upstream's text. */
function readBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return parseUpstreamJson(body);
  } catch (error) {
    throw invalidUpstreamAnswer('a chat completion', { cause: error });
  }
}

/**
 * The Responses object for a chat completion. The first choice's thoughts
 * (`reasoning_content`) become a reasoning item, its text (and refusal) a message, and each
 * tool call a `function_call` item, or a `custom_tool_call` when it calls one of the
 * request's custom tools (see `toolCallItem`), with the chat call id as `call_id`. Each
 * signature of the answer (its `reasoning_details`, which a signing family such as gx
 * writes) is the `encrypted_content` of a reasoning item right before the item it belongs
 * to; one of text the answer has none of is left out. Item ids follow the request id
 * (`msg_<request id>_<index>`…), so the conversation store can find them again. `usage` is
 * the billed one, written exactly (see `toResponsesUsage`).
 */
export function fromChatCompletion(body: unknown, usage: Usage, context: ResponsesAnswerContext) {
  const completion = parseUpstreamAnswer(readBody(body), chatCompletionSchema, 'a chat completion');
  const choice = completion.choices[0];
  if (choice === undefined) throw invalidUpstreamAnswer('a chat completion with a choice');
  const message = choice.message;
  const status = statusForFinish(choice.finish_reason);
  const itemStatus = status.status === 'incomplete' ? 'incomplete' : 'completed';
  const tools = new Map(declaredTools(context.request).map((tool) => [tool.chatName, tool]));
  const logprobs = toResponsesLogprobs(choice.logprobs);

  const output: OutputItem[] = [];
  const nextId = (kind: Parameters<typeof outputItemIdFor>[0]) => outputItemIdFor(kind, context.requestId, output.length);
  const calls = (message.tool_calls ?? []).map((call, index) => ({ call, callId: call.id ?? `call_${context.requestId}_${index}` }));
  const callIds = new Set(calls.map((entry) => entry.callId));
  const signatures = chatSignatures(message.reasoning_details);
  const callSignatures = new Map(signatures.flatMap((signature) => (signature.id !== undefined && callIds.has(signature.id) ? [[signature.id, signature.data] as const] : [])));
  const textSignature = signatures.findLast((signature) => signature.id === undefined || !callIds.has(signature.id))?.data;
  // A signature rides on a reasoning item right before the item it belongs to: the thoughts'
  // item when it is the last one, else an item of its own without a summary (to-chat-messages reads it back so).
  const signNext = (encrypted: string) => {
    const last = output.at(-1);
    if (last?.type === 'reasoning' && last.encrypted_content === undefined) output[output.length - 1] = reasoningItem(last.id, last.summary.map((part) => part.text), encrypted);
    else output.push(reasoningItem(nextId('reasoning'), [], encrypted));
  };

  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') output.push(reasoningItem(nextId('reasoning'), [message.reasoning_content]));
  const parts: MessagePart[] = [];
  if (typeof message.content === 'string' && message.content !== '') parts.push(outputTextPart(message.content, logprobs));
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ type: 'refusal', refusal: message.refusal });
  if (parts.length > 0) {
    if (textSignature !== undefined) signNext(textSignature);
    output.push(messageItem(nextId('message'), itemStatus, parts));
  }
  for (const { call, callId } of calls) {
    const name = call.function?.name ?? '';
    const callArguments = call.function?.arguments ?? '';
    const signature = callSignatures.get(callId);
    if (signature !== undefined) signNext(signature);
    output.push(toolCallItem(tools.get(name), name, context.requestId, output.length, 'completed', callId, callArguments));
  }
  return responseObject(context, status, output, usage);
}
