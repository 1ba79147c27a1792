import { emptyUsage, type Usage } from '../../../core/index.js';
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionMessage, ChatCompletionToolCall } from '../../../core/index.js';
import { convertGxLogprobs } from './convert-gx-logprobs.js';
import { convertGxUsage, tallyGxProducedOutput, type GxProducedOutput } from '../convert-gx-usage.js';
import { emptyGxResponse, gxErrorToGatewayError, gxPromptBlocked, invalidGxResponse, readGxError } from '../gx-error.js';
import type { GxCandidate } from '../gx-schemas.js';
import { readGxResponse } from '../read-gx-response.js';
import { mapGxFinishReason } from './map-gx-finish-reason.js';
import { renderGxPart } from '../render-gx-part.js';
import { toChatToolCall } from './to-chat-tool-call.js';
import { toChatCompletionUsage } from './to-chat-completion-usage.js';

/** What the chat answer needs besides the upstream body. */
export interface GxResponseContext {
  /** The model id the answer names. */
  model: string;
  /** The gateway's request id, for the fallback completion id. */
  requestId: string;
  /** Unix seconds. */
  created: number;
}

/** A chat completion and what it used. */
export interface GxChatResult {
  body: ChatCompletion;
  /**
   * From `usageMetadata`; when the upstream sent none, zeros marked `estimated` (the
   * gateway has no tokenizer on this path), with the images produced still counted.
   */
  usage: Usage;
}

function toChoice(candidate: GxCandidate, position: number): ChatCompletionChoice {
  let content = '';
  let reasoning: string | undefined;
  const toolCalls: ChatCompletionToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall !== undefined && part.functionCall !== null) toolCalls.push(toChatToolCall(part));
    // Thought images (interim drafts of 3-generation image models) are not answer content.
    else if (part.thought === true) reasoning = typeof part.text === 'string' ? (reasoning ?? '') + part.text : reasoning;
    else content += renderGxPart(part, content);
  }
  const message: ChatCompletionMessage = { role: 'assistant', content };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    index: candidate.index ?? position,
    message,
    logprobs: convertGxLogprobs(candidate.logprobsResult),
    // A non-streamed answer is complete, so no reason means a plain stop (reference-gateway.md §4.8).
    finish_reason: mapGxFinishReason(candidate.finishReason, toolCalls.length > 0) ?? 'stop',
  };
}

function estimatedUsage(produced: GxProducedOutput): Usage {
  const usage = emptyUsage('estimated');
  if (produced.images > 0) usage.images = produced.images;
  return usage;
}

/**
 * Translates a `generateContent` response into a chat completion (spec part 1, "Chat
 * completion object"): id from `responseId` (else `chatcmpl-<requestId>`); one choice per
 * candidate; text parts joined, code and media rendered as markdown, thought text as
 * `reasoning_content`, function calls as `tool_calls`.
 * @throws GatewayError 400 `prompt_blocked` when the prompt was blocked, 502 `empty_response`
 *   when there is no candidate, 502 `upstream_invalid_response` for a body of another shape,
 *   or the mapped upstream error for an `{error}` body.
 */
export function fromGxResponse(json: unknown, context: GxResponseContext): GxChatResult {
  const upstreamError = readGxError(json);
  if (upstreamError !== undefined) throw gxErrorToGatewayError(upstreamError);
  const parsed = readGxResponse(json);
  if (!parsed.success) throw invalidGxResponse(parsed.error);
  const response = parsed.data;
  const candidates = response.candidates ?? [];
  if (candidates.length === 0) {
    const blockReason = response.promptFeedback?.blockReason;
    if (blockReason !== undefined && blockReason !== null && blockReason !== '') throw gxPromptBlocked(blockReason, response.promptFeedback?.blockReasonMessage);
    throw emptyGxResponse();
  }

  const produced = tallyGxProducedOutput(candidates);
  const usage = response.usageMetadata === undefined || response.usageMetadata === null ? estimatedUsage(produced) : convertGxUsage(response.usageMetadata, produced);
  return {
    body: {
      id: response.responseId !== undefined && response.responseId !== null && response.responseId !== '' ? response.responseId : `chatcmpl-${context.requestId}`,
      object: 'chat.completion',
      created: context.created,
      model: context.model,
      choices: candidates.map(toChoice),
      usage: toChatCompletionUsage(usage),
    },
    usage,
  };
}
