import { type Usage } from '../../core/index.js';
import { parseEmbeddedJson } from '../../core/kit/index.js';
import type { ChatLogprobs } from '../shared/chat-answer.js';

/** One part of a native answer, as this translator writes it. */
export type NativeAnswerPart =
  | { text: string; thought?: true }
  | { functionCall: { id: string; name: string; args: Record<string, unknown> } };

/** `usageMetadata` of a native answer. */
export interface NativeUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** `logprobsResult` of a native candidate. */
export interface NativeLogprobsResult {
  topCandidates: { candidates: { token: string; logProbability: number }[] }[];
  chosenCandidates: { token: string; logProbability: number }[];
}

/**
 * The billed usage as `usageMetadata` (spec part 1, "Native generate response"): prompt is the
 * input, cached content the cached part of it, thoughts the reasoning and candidates the rest
 * of the output, so prompt + candidates + thoughts is the total billed. Reasoning is part of
 * the output it is counted in and is capped at it (an upstream that reports more reasoning
 * than output tokens still bills the output). Zero cached and thought counts are left out,
 * as the native API leaves them out.
 */
export function toUsageMetadata(usage: Usage): NativeUsageMetadata {
  const thoughts = Math.min(usage.reasoningTokens, usage.outputTokens);
  const metadata: NativeUsageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens - thoughts,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if (usage.cachedInputTokens > 0) metadata.cachedContentTokenCount = usage.cachedInputTokens;
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  return metadata;
}

/**
 * The native `finishReason` for a chat `finish_reason`: `stop` is STOP, `length` MAX_TOKENS,
 * `content_filter` SAFETY, and a tool-call turn ends with STOP, as native function-call turns
 * do (upstreams.md §1.3). Anything else is OTHER; none at all (a complete answer that did not
 * say) is STOP.
 */
export function toNativeFinishReason(finishReason: string | null | undefined): string {
  switch (finishReason) {
    case undefined:
    case null:
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/**
 * A chat tool call as a native `functionCall` part, keeping the chat id so the client's
 * `functionResponse` can name it. Undefined when the arguments are not a JSON object (an
 * empty text is `{}`), which the native format calls MALFORMED_FUNCTION_CALL.
 */
export function toFunctionCallPart(id: string, name: string, argumentsText: string): NativeAnswerPart | undefined {
  if (argumentsText.trim() === '') return { functionCall: { id, name, args: {} } };
  const parsed = parseEmbeddedJson(argumentsText);
  if (parsed.kind !== 'json' || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  return { functionCall: { id, name, args: parsed.value as Record<string, unknown> } };
}

/** Chat `logprobs` as `logprobsResult`: each chosen token, with the alternatives at its step. Undefined without any. */
export function toLogprobsResult(logprobs: ChatLogprobs): NativeLogprobsResult | undefined {
  const content = logprobs?.content ?? [];
  if (content.length === 0) return undefined;
  const candidate = (entry: { token: string; logprob: number }) => ({ token: entry.token, logProbability: entry.logprob });
  return { topCandidates: content.map((entry) => ({ candidates: (entry.top_logprobs ?? []).map(candidate) })), chosenCandidates: content.map(candidate) };
}
