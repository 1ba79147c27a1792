import type { ResponsesStreamError, ResponsesStreamErrorKind } from './openai-behaviour.js';
import { functionCallItem, messageItem, outputTextPart, reasoningItem, type ResponsesAnswerPlan } from './responses-object.js';
import { randomAlphanumeric } from './openai-wire.js';

/** A Responses stream event before it is numbered: its `type` and the rest of its payload. */
export type ResponseEvent = { type: string } & Record<string, unknown>;

/**
 * One event as OpenAI frames it on `/v1/responses` (upstreams.md §2.3): an `event:` line
 * naming the type, a `data:` line with compact JSON, a blank line.
 */
export const frameResponseEvent = (event: ResponseEvent): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** Numbers events from 0 across the whole stream, `sequence_number` right after `type` as in the fixtures. */
export const numberEvents = (events: ResponseEvent[]): ResponseEvent[] =>
  events.map(({ type, ...rest }, index) => ({ type, sequence_number: index, ...rest }));

/**
 * The padding OpenAI adds to each delta so that its length does not leak the token. In the
 * recorded streams the delta and its padding are 16 characters together (fixture
 * openai-responses-stream-text.sse); longer deltas were not seen, so they get one character.
 */
const obfuscation = (delta: string): string => randomAlphanumeric(Math.max(1, 16 - delta.length));

/** The answer as words, each with the space before it, as OpenAI's text deltas come ("The", " final"). */
const textDeltas = (text: string): string[] => text.match(/\s*\S+|\s+$/g) ?? [];

/** JSON arguments cut where a tokenizer would: runs of word characters and runs of the rest (`{"`, `a`, `":`). */
const argumentDeltas = (json: string): string[] => json.match(/\w+|\W+/g) ?? [];

/**
 * The events between `response.in_progress` and the terminal event for an answer: each
 * output item's `added`, its deltas and `done` events, in the order of the recorded streams
 * (fixture openai-responses-stream-text.sse for text; upstreams.md §2.3 for reasoning and
 * function calls).
 */
export function itemEvents(plan: ResponsesAnswerPlan, includeObfuscation: boolean): ResponseEvent[] {
  const pad = (delta: string) => (includeObfuscation ? { obfuscation: obfuscation(delta) } : {});
  const events: ResponseEvent[] = [];
  let outputIndex = 0;

  if (plan.reasoning !== undefined) {
    const reasoning = plan.reasoning;
    const at = { item_id: reasoning.id, output_index: outputIndex };
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: reasoningItem(reasoning, false) });
    if (reasoning.summary !== undefined) {
      const text = reasoning.summary;
      events.push({ type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const delta of textDeltas(text)) events.push({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta, ...pad(delta) });
      events.push({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text });
      events.push({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: reasoningItem(reasoning, true) });
    outputIndex += 1;
  }

  if (plan.message !== undefined) {
    const message = plan.message;
    const at = { item_id: message.id, output_index: outputIndex, content_index: 0 };
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: messageItem(message, 'in_progress') });
    events.push({ type: 'response.content_part.added', ...at, part: outputTextPart('') });
    for (const delta of textDeltas(message.text)) events.push({ type: 'response.output_text.delta', ...at, delta, logprobs: [], ...pad(delta) });
    events.push({ type: 'response.output_text.done', ...at, text: message.text, logprobs: [] });
    events.push({ type: 'response.content_part.done', ...at, part: outputTextPart(message.text) });
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: messageItem(message, 'completed') });
    outputIndex += 1;
  }

  for (const call of plan.functionCalls) {
    const at = { item_id: call.id, output_index: outputIndex };
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: functionCallItem(call, 'in_progress') });
    for (const delta of argumentDeltas(call.arguments)) events.push({ type: 'response.function_call_arguments.delta', ...at, delta, ...pad(delta) });
    // upstreams.md §2.3 has `name` after `arguments`, where OpenAI sends it; OpenAI's description requires it.
    events.push({ type: 'response.function_call_arguments.done', ...at, arguments: call.arguments, name: call.name });
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: functionCallItem(call, 'completed') });
    outputIndex += 1;
  }
  return events;
}

/** The item events up to and including the first half of the deltas (at least one). */
export function firstHalfOfDeltas(events: ResponseEvent[]): ResponseEvent[] {
  const deltaPositions = events.flatMap((event, index) => (event.type.endsWith('.delta') ? [index] : []));
  if (deltaPositions.length === 0) return events.slice(0, 1);
  const keep = deltaPositions[Math.ceil(deltaPositions.length / 2) - 1]!;
  return events.slice(0, keep + 1);
}

const streamErrors: Record<ResponsesStreamErrorKind, ResponsesStreamError> = {
  insufficient_quota: {
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  },
  server_error: {
    type: 'server_error',
    code: 'server_error',
    message: 'An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists.',
  },
  rate_limit_exceeded: {
    type: 'tokens',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests on tokens per min (TPM). Please try again in 1s.',
  },
};

/** The `error` of an in-band failure: all four keys, as in fixture openai-responses-stream-error.sse. */
export function streamError(choice: true | ResponsesStreamErrorKind | ResponsesStreamError, message?: string): Required<ResponsesStreamError> {
  const known = choice === true ? streamErrors.insufficient_quota : typeof choice === 'string' ? streamErrors[choice] : choice;
  return { type: known.type, code: known.code, message: message ?? known.message, param: known.param ?? null };
}
