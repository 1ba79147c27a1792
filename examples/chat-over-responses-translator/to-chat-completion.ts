// A Responses object (the served JSON answer, fixtures/responses-answer-reasoning.json) as a
// chat completion: the message's text and refusal, function calls as tool calls with their
// call ids, reasoning summaries as `reasoning_content` (the field chat families use for
// thoughts), the finish reason from the status, and usage written from what is billed.
import { z } from 'zod';
import { malformedUpstreamAnswer, type TranslationContext, type Usage } from 'model-gateway';
import { chatFinishReason, chatUsage } from './chat-usage.js';

// Lenient: only what the translation reads is checked; an item of another type is passed over.
const text = z.string().nullish();
const responseSchema = z.looseObject({
  status: text,
  incomplete_details: z.looseObject({ reason: text }).nullish(),
  output: z
    .array(
      z.looseObject({
        type: z.string(),
        content: z.array(z.looseObject({ type: z.string(), text, refusal: text })).nullish(),
        summary: z.array(z.looseObject({ type: z.string(), text })).nullish(),
        call_id: text,
        name: text,
        arguments: text,
      }),
    )
    .default([]),
});

/** The chat completion id of a request: stable for the request, as chat clients expect of every chunk and answer. */
export const chatCompletionId = (context: TranslationContext): string => `chatcmpl-${context.requestId}`;

/** The chat completion for a Responses answer, billed by `usage`. */
export function toChatCompletion(body: unknown, usage: Usage, context: TranslationContext) {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) throw malformedUpstreamAnswer('the upstream\'s answer is not a Responses object', { cause: parsed.error });
  const response = parsed.data;
  let content = '';
  let refusal = '';
  const reasoning: string[] = [];
  const toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content ?? []) {
        if (part.type === 'output_text') content += part.text ?? '';
        else if (part.type === 'refusal') refusal += part.refusal ?? '';
      }
    } else if (item.type === 'reasoning') {
      for (const part of item.summary ?? []) if (part.type === 'summary_text' && part.text) reasoning.push(part.text);
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id ?? '', type: 'function', function: { name: item.name ?? '', arguments: item.arguments ?? '' } });
    }
  }
  return {
    id: chatCompletionId(context),
    object: 'chat.completion',
    created: context.createdSeconds,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: content === '' && toolCalls.length > 0 ? null : content,
          refusal: refusal === '' ? null : refusal,
          ...(reasoning.length === 0 ? {} : { reasoning_content: reasoning.join('\n\n') }),
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: chatFinishReason(response.status, response.incomplete_details?.reason, toolCalls.length > 0),
      },
    ],
    usage: chatUsage(usage),
  };
}
