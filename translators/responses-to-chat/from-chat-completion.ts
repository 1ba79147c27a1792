import { outputItemIdFor, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer, parseUpstreamAnswer, parseUpstreamJson } from '../../core/kit/index.js';
import { chatCompletionSchema } from '../shared/chat-answer.js';
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
 * request's custom tools (see `toolCallItem`), with the chat call id as `call_id`. Item ids follow the request id
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
  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') output.push(reasoningItem(nextId('reasoning'), [message.reasoning_content]));
  const parts: MessagePart[] = [];
  if (typeof message.content === 'string' && message.content !== '') parts.push(outputTextPart(message.content, logprobs));
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ type: 'refusal', refusal: message.refusal });
  if (parts.length > 0) output.push(messageItem(nextId('message'), itemStatus, parts));
  (message.tool_calls ?? []).forEach((call, index) => {
    const name = call.function?.name ?? '';
    const callArguments = call.function?.arguments ?? '';
    const callId = call.id ?? `call_${context.requestId}_${index}`;
    output.push(toolCallItem(tools.get(name), name, context.requestId, output.length, 'completed', callId, callArguments));
  });
  return responseObject(context, status, output, usage);
}
