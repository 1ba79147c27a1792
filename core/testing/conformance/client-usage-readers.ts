import type { OperationName } from '../../contracts/provider/operation-call.js';
import type { Usage } from '../../contracts/usage.js';

/** The four token counts billing reads, as a client format states them. */
export type UsageCounts = Pick<Usage, 'inputTokens' | 'cachedInputTokens' | 'outputTokens' | 'reasoningTokens'>;

/** Reads the token counts a client-format JSON answer states; undefined when it states none. */
export type UsageReader = (body: unknown) => UsageCounts | undefined;

const count = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);
const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/**
 * The reader of an OpenAI-style `usage` whose counts are `<input>_tokens` and
 * `<output>_tokens`, with the cached and reasoning parts in their `_details`.
 */
const openAiStyleUsage =
  (input: string, output: string): UsageReader =>
  (body) => {
    const usage = record(body).usage;
    if (usage === undefined || usage === null) return undefined;
    const fields = record(usage);
    return {
      inputTokens: count(fields[`${input}_tokens`]),
      cachedInputTokens: count(record(fields[`${input}_tokens_details`]).cached_tokens ?? 0),
      outputTokens: count(fields[`${output}_tokens`]),
      reasoningTokens: count(record(fields[`${output}_tokens_details`]).reasoning_tokens ?? 0),
    };
  };

/**
 * Where each client format the suite knows keeps its usage, with the meaning core gives the
 * counts (input includes cached, output includes reasoning): chat completions and Responses.
 * A translator for another client format passes its own reader (`readUsage`).
 */
export const clientUsageReaders: { [Name in OperationName]?: UsageReader } = {
  chat: openAiStyleUsage('prompt', 'completion'),
  responses: openAiStyleUsage('input', 'output'),
};

/**
 * The tool call ids a served JSON answer carries, in the served formats the suite knows:
 * chat completions (`tool_calls[].id`) and Responses (`function_call` items' `call_id`). Each
 * must reach the client's answer, or the client cannot send the call's result back.
 */
export const servedToolCallIds: { [Name in OperationName]?: (body: unknown) => string[] } = {
  chat: (body) => {
    const choices = record(body).choices;
    return (Array.isArray(choices) ? choices : []).flatMap((choice) => {
      const calls = record(record(choice).message).tool_calls;
      return (Array.isArray(calls) ? calls : []).map((call) => record(call).id).filter((id): id is string => typeof id === 'string' && id !== '');
    });
  },
  responses: (body) => {
    const output = record(body).output;
    return (Array.isArray(output) ? output : [])
      .filter((item) => record(item).type === 'function_call')
      .map((item) => record(item).call_id)
      .filter((id): id is string => typeof id === 'string' && id !== '');
  },
};
