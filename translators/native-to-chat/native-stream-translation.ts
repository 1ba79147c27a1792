import type { z } from 'zod';
import { type StreamOutput, type StreamTranslation, type TranslationContext, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer, parseUpstreamJson } from '../../core/kit/index.js';
import { chatChunkSchema, type ChatChunk, type ChatChunkDelta } from '../shared/chat-answer.js';
import { toFunctionCallPart, toLogprobsResult, toNativeFinishReason, toUsageMetadata, type NativeAnswerPart } from './native-answer-parts.js';

/** A tool call being streamed: its id and name come first, its arguments in pieces. */
interface ToolCallInProgress {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Chat completion chunks as native `streamGenerateContent` chunks, each a whole
 * GenerateContentResponse as the native stream encoders write them (upstreams.md §1.4):
 * - a chunk whose first choice adds reasoning or text gives a chunk with a thought part and a
 *   text part (content events, counting their characters); role-only and usage-only chunks
 *   give none;
 * - tool calls are gathered, since the chat side may send their arguments in pieces and a
 *   native stream sends each `functionCall` whole (§1.5): they go out in the last chunk;
 * - the last chunk, when the served stream ends (`[DONE]`, or its end), carries the function
 *   calls, the finish reason and `usageMetadata` from the last usage the stream reported, the
 *   billed one, which the native stream puts on its final chunk;
 * - `usage`, `affinity` and `error` outputs pass unchanged; after an error nothing more is
 *   written, so the client's stream ends with the error.
 * Every chunk names `modelVersion` (the client's model) and `responseId` (the chat id).
 */
export function createNativeStreamTranslation(context: TranslationContext): StreamTranslation {
  let responseId: string | undefined;
  let finishReason: string | null | undefined;
  let usage: Usage | undefined;
  let closed = false;
  const toolCalls = new Map<number, ToolCallInProgress>();

  const chunk = (candidate: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ candidates: [{ ...candidate, index: 0 }], ...extra, modelVersion: context.model, responseId: responseId ?? context.requestId });

  const gather = (calls: NonNullable<ChatChunkDelta['tool_calls']>) => {
    calls.forEach((call, position) => {
      const index = call.index ?? position;
      const known = toolCalls.get(index) ?? { id: call.id ?? `call_${context.requestId}_${index}`, name: '', arguments: '' };
      known.name += call.function?.name ?? '';
      known.arguments += call.function?.arguments ?? '';
      toolCalls.set(index, known);
    });
  };

  const close = (): StreamOutput[] => {
    if (closed) return [];
    closed = true;
    const parts: NativeAnswerPart[] = [];
    let malformed = false;
    let characters = 0;
    for (const call of [...toolCalls.entries()].sort(([left], [right]) => left - right).map(([, value]) => value)) {
      const part = toFunctionCallPart(call.id, call.name, call.arguments);
      if (part === undefined) malformed = true;
      else parts.push(part);
      characters += call.name.length + call.arguments.length;
    }
    const candidate = {
      content: parts.length === 0 ? { role: 'model' } : { parts, role: 'model' },
      finishReason: malformed ? 'MALFORMED_FUNCTION_CALL' : toNativeFinishReason(finishReason),
    };
    const data = chunk(candidate, usage === undefined ? {} : { usageMetadata: toUsageMetadata(usage) });
    return [{ type: 'event', data, content: parts.length > 0, outputCharacters: characters }];
  };

  const translate = (data: string): StreamOutput[] => {
    let parsed: z.ZodSafeParseResult<ChatChunk>;
    try {
      parsed = chatChunkSchema.safeParse(parseUpstreamJson(data));
    } catch (error) {
      return [{ type: 'error', error: invalidUpstreamAnswer('a chat completion chunk', { cause: error }) }];
    }
    if (!parsed.success) return [{ type: 'error', error: invalidUpstreamAnswer('a chat completion chunk', { cause: parsed.error }) }];
    responseId ??= parsed.data.id ?? undefined;
    const choice = (parsed.data.choices ?? []).find((entry) => (entry.index ?? 0) === 0);
    if (choice === undefined) return [];
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) finishReason = choice.finish_reason;
    const delta = choice.delta;
    gather(delta?.tool_calls ?? []);
    const parts: NativeAnswerPart[] = [];
    const reasoning = delta?.reasoning_content ?? '';
    const text = delta?.content ?? delta?.refusal ?? '';
    if (reasoning !== '') parts.push({ text: reasoning, thought: true });
    if (text !== '') parts.push({ text });
    if (parts.length === 0) return [];
    const logprobsResult = toLogprobsResult(choice.logprobs);
    const candidate = { content: { parts, role: 'model' }, ...(logprobsResult === undefined ? {} : { logprobsResult }) };
    return [{ type: 'event', data: chunk(candidate), content: true, outputCharacters: reasoning.length + text.length }];
  };

  return {
    push(output: StreamOutput): StreamOutput[] {
      if (output.type === 'usage') usage = output.usage;
      if (output.type === 'error') closed = true;
      if (output.type !== 'event') return [output];
      if (closed) return [];
      if (output.data === '[DONE]') return close();
      const outputs = translate(output.data);
      if (outputs.some((entry) => entry.type === 'error')) closed = true;
      return outputs;
    },
    end: close,
  };
}
