import { responseIdFor, type ResponsesRequest, type TranslationContext, type Usage } from '../../core/index.js';
import type { OutputItem } from './responses-output-items.js';

/** What the answer is written from: the request's context and the client's request, whose parameters it echoes. */
export interface ResponsesAnswerContext extends TranslationContext {
  request: ResponsesRequest;
}

/** Where a response stands, and why it stopped short when it did. */
export interface ResponseStatus {
  status: 'in_progress' | 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

/** The `usage` of a Responses object. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/**
 * The Responses `usage` for what the gateway bills, field for field: input with its cached
 * part, output with its reasoning part, and their sum. `cache_write_tokens`, which OpenAI's
 * OpenAPI description requires, is 0: no chat family reports writing to a cache.
 */
export function toResponsesUsage(usage: Usage): ResponsesUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * The status for a chat `finish_reason`: `length` stopped at `max_output_tokens` and
 * `content_filter` at a filter, both `incomplete` with the reason; anything else
 * (`stop`, `tool_calls`) completed the response.
 */
export function statusForFinish(finishReason: string | null | undefined): ResponseStatus {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/**
 * The Responses object for one translated answer, keys in the order of a recorded real one
 * (fixture openai-responses-nonstream-reasoning.json). The request's parameters are echoed as
 * the real API does, with the defaults it documents where the client set none (`tool_choice`
 * auto, `parallel_tool_calls` true, `store` true, `truncation` disabled, text format text) and
 * null where the family's own default applies and is not known (`temperature`, `top_p`).
 * `usage` is left out until it is known, and `user` when the client sent none, as the schema
 * has no null for either.
 */
export function responseObject(context: ResponsesAnswerContext, status: ResponseStatus, output: readonly OutputItem[], usage: Usage | undefined) {
  const request = context.request;
  const summary = request.reasoning?.summary ?? request.reasoning?.generate_summary;
  return {
    id: responseIdFor(context.requestId),
    object: 'response' as const,
    created_at: context.createdSeconds,
    status: status.status,
    background: false,
    error: null,
    incomplete_details: status.incomplete_details,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    model: context.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: request.prompt_cache_retention ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: summary === 'none' ? null : (summary ?? null) },
    safety_identifier: request.safety_identifier ?? null,
    service_tier: request.service_tier ?? 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map(echoTool),
    top_logprobs: request.top_logprobs ?? 0,
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? 'disabled',
    ...(usage === undefined ? {} : { usage: toResponsesUsage(usage) }),
    // The real API writes `user: null`, which OpenAI's OpenAPI description does not allow: left out instead.
    ...(typeof request.user === 'string' ? { user: request.user } : {}),
    metadata: request.metadata ?? {},
  };
}

/** A tool as the real API echoes it: a function tool always with `description`, `parameters` and `strict` (null when not given). */
function echoTool(tool: NonNullable<ResponsesRequest['tools']>[number]) {
  if (tool.type !== 'function') return tool;
  return { ...tool, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? null };
}
