import { isObject } from './openai-wire.js';

/** The fields of a `POST /v1/responses` body the fake reads or echoes (upstreams.md §2.2). */
export interface ResponsesRequest {
  model: string;
  input: string | unknown[];
  instructions?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  stream?: unknown;
  stream_options?: { include_obfuscation?: unknown } | null;
  max_output_tokens?: unknown;
  max_tool_calls?: unknown;
  temperature?: unknown;
  top_p?: unknown;
  top_logprobs?: unknown;
  reasoning?: { effort?: unknown; summary?: unknown } | null;
  text?: { format?: unknown; verbosity?: unknown } | null;
  previous_response_id?: unknown;
  store?: unknown;
  background?: unknown;
  include?: unknown;
  metadata?: unknown;
  parallel_tool_calls?: unknown;
  truncation?: unknown;
  prompt_cache_key?: unknown;
  prompt_cache_retention?: unknown;
  safety_identifier?: unknown;
  service_tier?: unknown;
  user?: unknown;
}

/** The names of the request's function tools. */
export function functionToolNames(request: ResponsesRequest): Set<string> {
  const tools = Array.isArray(request.tools) ? request.tools.filter(isObject) : [];
  return new Set(tools.filter((tool) => tool.type === 'function' && typeof tool.name === 'string').map((tool) => tool.name as string));
}

/** Whether the model "thinks": a `reasoning` object whose effort is not `none`. */
export const isReasoning = (request: ResponsesRequest): boolean => isObject(request.reasoning) && request.reasoning.effort !== 'none';

/** The text of the last user message of `input` (all its `input_text` parts, space-joined). */
export function lastUserText(input: string | unknown[]): string {
  if (typeof input === 'string') return input;
  const user = input.filter(isObject).filter((item) => (item.type === undefined || item.type === 'message') && item.role === 'user').at(-1);
  if (user === undefined) return '';
  if (typeof user.content === 'string') return user.content;
  if (!Array.isArray(user.content)) return '';
  return user.content
    .filter(isObject)
    .filter((part) => part.type === 'input_text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join(' ');
}

/** The input's last item when it hands back a function's result, with the function's name when known. */
export function trailingFunctionOutput(input: string | unknown[], earlierOutput: unknown[]): { name: string; output: string } | undefined {
  if (typeof input === 'string') return undefined;
  const last = input.at(-1);
  if (!isObject(last) || last.type !== 'function_call_output') return undefined;
  const call = [...earlierOutput, ...input].filter(isObject).find((item) => item.type === 'function_call' && item.call_id === last.call_id);
  const name = typeof call?.name === 'string' ? call.name : String(last.call_id);
  return { name, output: typeof last.output === 'string' ? last.output : JSON.stringify(last.output) };
}

/** `call <name> {json}` in the user's text, naming a declared function (the gx fake's convention). */
export function requestedCall(text: string, declared: Set<string>): { name: string; arguments: string } | undefined {
  const match = /\bcall ([A-Za-z_][\w-]*)\s*(\{.*\})?/.exec(text);
  if (match === null || !declared.has(match[1]!)) return undefined;
  return { name: match[1]!, arguments: match[2] ?? '{}' };
}
