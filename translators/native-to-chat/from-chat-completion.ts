import { emptyUpstreamAnswer, type TranslationContext, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer, parseUpstreamAnswer } from '../../core/kit/index.js';
import { chatCompletionSchema } from '../shared/chat-answer.js';
import { toFunctionCallPart, toLogprobsResult, toNativeFinishReason, toUsageMetadata, type NativeAnswerPart } from './native-answer-parts.js';

/**
 * A chat completion as a native `generateContent` answer (spec part 1, "Native generate
 * response"): the first choice as the one candidate (a translated request asks for one), its
 * reasoning as a thought part first, its text (or refusal) as a text part, each tool call as a
 * `functionCall` part carrying the chat id; the finish reason mapped, MALFORMED_FUNCTION_CALL
 * when a call's arguments are not a JSON object (that call is left out); `usageMetadata` from
 * the billed `usage`; `modelVersion` the model the client named; `responseId` the chat id.
 * @throws 502 `upstream_invalid_response` for a body of another shape, 502 `empty_response`
 *   for one without choices.
 */
export function fromChatCompletion(body: unknown, usage: Usage, context: TranslationContext): unknown {
  const completion = parseUpstreamAnswer(body, chatCompletionSchema, 'a chat completion');
  const choice = completion.choices[0];
  if (choice === undefined) throw emptyUpstreamAnswer('the chat completion has no choices');

  const { message } = choice;
  const parts: NativeAnswerPart[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') parts.push({ text: message.reasoning_content, thought: true });
  const text = message.content ?? message.refusal ?? '';
  if (text !== '') parts.push({ text });
  let malformed = false;
  (message.tool_calls ?? []).forEach((call, index) => {
    // A call must name its function: a native functionCall without a name is nothing a client can run.
    const name = call.function?.name;
    if (typeof name !== 'string') throw invalidUpstreamAnswer('a chat completion whose tool calls name their function');
    const part = toFunctionCallPart(call.id ?? `call_${context.requestId}_${index}`, name, call.function?.arguments ?? '');
    if (part === undefined) malformed = true;
    else parts.push(part);
  });

  const candidate: Record<string, unknown> = {
    content: parts.length === 0 ? { role: 'model' } : { parts, role: 'model' },
    finishReason: malformed ? 'MALFORMED_FUNCTION_CALL' : toNativeFinishReason(choice.finish_reason),
    index: 0,
  };
  const logprobsResult = toLogprobsResult(choice.logprobs);
  if (logprobsResult !== undefined) candidate.logprobsResult = logprobsResult;
  return {
    candidates: [candidate],
    usageMetadata: toUsageMetadata(usage),
    modelVersion: context.model,
    responseId: completion.id ?? context.requestId,
  };
}
