import { randomBytes } from 'node:crypto';
import type { ResponsesRequest } from './responses-input.js';
import { isObject } from './openai-wire.js';

type JsonObject = Record<string, unknown>;

/** What the model answers, before it is written as a Response object or as stream events. */
export interface ResponsesAnswerPlan {
  reasoning?: { id: string; encryptedContent?: string; summary?: string };
  message?: { id: string; text: string };
  functionCalls: Array<{ id: string; callId: string; name: string; arguments: string }>;
}

/** The parts of a Response object that are not echoed from the request. */
export interface ResponseObjectParts {
  id: string;
  createdAt: number;
  status: 'in_progress' | 'completed' | 'failed';
  output: JsonObject[];
  usage: unknown;
  error?: { code: string; message: string } | null;
  /** OpenAI reports the tier asked for (`auto`) while running and the one used (`default`) when done. */
  serviceTier: string;
  /** Only non-stream bodies carry `billing`; the streamed snapshots of the same day do not (fixtures). */
  billing: boolean;
}

/** An id as OpenAI writes them: a prefix and 50 hex digits (`resp_`, `msg_`, `rs_`, `fc_`). */
export const openAiObjectId = (prefix: string): string => `${prefix}${randomBytes(25).toString('hex')}`;

/** A `call_id` as OpenAI writes them: `call_` and 24 letters and digits. */
export const openAiCallId = (): string => `call_${randomBytes(18).toString('base64').replace(/[+/=]/g, 'x').slice(0, 24)}`;

/**
 * A Response object with every top-level key of upstreams.md §2.2 in the order of fixture
 * openai-responses-nonstream-reasoning.json, echoing the request's values where it gave them
 * and OpenAI's defaults where it did not.
 */
export function responseObject(request: ResponsesRequest, parts: ResponseObjectParts): JsonObject {
  const reasoning = isObject(request.reasoning) ? request.reasoning : {};
  const text = isObject(request.text) ? request.text : {};
  return {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    status: parts.status,
    background: request.background ?? false,
    ...(parts.billing ? { billing: { payer: 'developer' } } : {}),
    error: parts.error ?? null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    model: request.model,
    output: parts.output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: request.prompt_cache_retention ?? null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    safety_identifier: request.safety_identifier ?? null,
    service_tier: parts.serviceTier,
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: text.format ?? { type: 'text' }, verbosity: text.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools.map(normaliseTool) : [],
    top_logprobs: request.top_logprobs ?? 0,
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage: parts.usage,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/** OpenAI echoes a function tool with all its keys, `strict` defaulting to true (fixture tools). */
function normaliseTool(tool: unknown): unknown {
  if (!isObject(tool) || tool.type !== 'function') return tool;
  return { type: 'function', description: tool.description ?? null, name: tool.name, parameters: tool.parameters ?? null, strict: tool.strict ?? true };
}

/** The `output` of a finished answer, in the order the model produced it. */
export function outputItems(plan: ResponsesAnswerPlan): JsonObject[] {
  const items: JsonObject[] = [];
  if (plan.reasoning !== undefined) items.push(reasoningItem(plan.reasoning, true));
  if (plan.message !== undefined) items.push(messageItem(plan.message, 'completed'));
  for (const call of plan.functionCalls) items.push(functionCallItem(call, 'completed'));
  return items;
}

/** An `output_text` content part, keys in the fixture's order. */
export const outputTextPart = (text: string): JsonObject => ({ type: 'output_text', annotations: [], logprobs: [], text });

/** A `message` item; while in progress its content is still empty. */
export function messageItem(message: { id: string; text: string }, status: 'in_progress' | 'completed'): JsonObject {
  const content = status === 'completed' ? [outputTextPart(message.text)] : [];
  return { id: message.id, type: 'message', status, content, role: 'assistant' };
}

/** A `reasoning` item; `withSummary` false gives the empty summary it starts with. */
export function reasoningItem(reasoning: NonNullable<ResponsesAnswerPlan['reasoning']>, withSummary: boolean): JsonObject {
  const summary = withSummary && reasoning.summary !== undefined ? [{ type: 'summary_text', text: reasoning.summary }] : [];
  const encrypted = reasoning.encryptedContent === undefined ? {} : { encrypted_content: reasoning.encryptedContent };
  return { id: reasoning.id, type: 'reasoning', ...encrypted, summary };
}

/** A `function_call` item; while in progress its arguments are still empty. */
export function functionCallItem(call: ResponsesAnswerPlan['functionCalls'][number], status: 'in_progress' | 'completed'): JsonObject {
  return { id: call.id, type: 'function_call', status, arguments: status === 'completed' ? call.arguments : '', call_id: call.callId, name: call.name };
}
