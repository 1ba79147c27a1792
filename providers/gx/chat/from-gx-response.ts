import { randomUUID } from 'node:crypto';
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionLogprobs, ChatCompletionMessage, ChatCompletionToolCall, ChatReasoningDetail } from '../../../core/index.js';
import type { ChatCompletionUsage, ChatFinishReason, ModalityTokens, Usage } from '../../../core/index.js';
import { convertGxUsage, tallyGxProducedOutput } from '../convert-gx-usage.js';
import { emptyGxResponse, gxInBandError, gxPromptBlocked, invalidGxResponse } from '../gx-error.js';
import { readGxResponse, type GxCandidate, type GxGenerateContentResponse, type GxLogprobsResult, type GxPart } from '../gx-schemas.js';

/** What the chat answer needs besides the upstream body. */
export interface GxResponseContext {
  /** The model id the answer names. */
  model: string;
  /** The gateway's request id, for the fallback completion id. */
  requestId: string;
  /** Unix seconds. */
  created: number;
}

/** A chat completion and what it used (zeros marked `estimated` when the upstream sent no `usageMetadata`). */
export interface GxChatResult {
  body: ChatCompletion;
  usage: Usage;
  /** Present (true) when the upstream refused: see {@link gxRefused}. */
  contentFiltered?: true;
}

/** A fenced block, starting on its own line after `precedingText`. */
function fencedBlock(language: string, body: string, precedingText: string): string {
  const lineBreak = precedingText === '' || precedingText.endsWith('\n') ? '' : '\n';
  return `${lineBreak}\`\`\`${language}\n${body.endsWith('\n') ? body.slice(0, -1) : body}\n\`\`\`\n`;
}

const mediaLink = (mimeType: string | null | undefined, uri: string): string =>
  (mimeType ?? '').toLowerCase().startsWith('image/') ? `![image](${uri})` : `[media](${uri})`;

/**
 * The message text for one answer part (spec part 1, "Chat completion object";
 * reference-gateway.md §4.6): text as it is; `executableCode` as a fenced block tagged with
 * its language (`PYTHON` → `python`) and `codeExecutionResult` as a fenced `output` block,
 * each on its own lines; an inline image as `![image](data:<mime>;base64,...)`, other inline
 * media as `[media](data:...)`; a file reference likewise with its URI. Thought parts and
 * function calls are not message text; they and empty parts give ''. `precedingText` is
 * what the message holds so far (only its end matters).
 */
function renderGxPart(part: GxPart, precedingText: string): string {
  if (part.thought === true || part.functionCall !== undefined && part.functionCall !== null) return '';
  if (typeof part.text === 'string') return part.text;
  if (part.executableCode !== undefined && part.executableCode !== null) {
    const language = (part.executableCode.language ?? '').toLowerCase();
    return fencedBlock(language === 'language_unspecified' ? '' : language, part.executableCode.code ?? '', precedingText);
  }
  if (part.codeExecutionResult !== undefined && part.codeExecutionResult !== null) {
    return fencedBlock('output', part.codeExecutionResult.output ?? '', precedingText);
  }
  if (part.inlineData !== undefined && part.inlineData !== null) {
    const mimeType = part.inlineData.mimeType ?? 'application/octet-stream';
    return mediaLink(mimeType, `data:${mimeType};base64,${part.inlineData.data ?? ''}`);
  }
  if (part.fileData !== undefined && part.fileData !== null && typeof part.fileData.fileUri === 'string') {
    return mediaLink(part.fileData.mimeType, part.fileData.fileUri);
  }
  return '';
}

/**
 * A `functionCall` part as a chat tool call: `args` serialized as the JSON string clients
 * expect, and a fresh id `call_<32 hex digits>`, since the upstream usually sends none
 * (upstreams.md §1.5) and a replayed call is matched by name anyway.
 */
function toChatToolCall(part: GxPart): ChatCompletionToolCall {
  return {
    id: `call_${randomUUID().replaceAll('-', '')}`,
    type: 'function',
    function: { name: part.functionCall?.name ?? '', arguments: JSON.stringify(part.functionCall?.args ?? {}) },
  };
}

const utf8Bytes = (token: string): number[] => [...Buffer.from(token, 'utf8')];

/** `candidates[].logprobsResult` as chat `logprobs`: one entry per chosen token, with the top alternatives at that step; null when absent. */
export function convertGxLogprobs(result: GxLogprobsResult | null | undefined): ChatCompletionLogprobs | null {
  const chosen = result?.chosenCandidates;
  if (chosen === undefined || chosen === null || chosen.length === 0) return null;
  const entry = (candidate: { token?: string | null; logProbability?: number | null }) => {
    const token = candidate.token ?? '';
    return { token, logprob: candidate.logProbability ?? 0, bytes: utf8Bytes(token) };
  };
  return {
    content: chosen.map((candidate, step) => ({ ...entry(candidate), top_logprobs: (result?.topCandidates?.[step]?.candidates ?? []).map(entry) })),
    refusal: null,
  };
}

/**
 * The chat finish reason for an upstream `finishReason` (spec part 1, reference-gateway.md
 * §4.8): STOP is `stop`, MAX_TOKENS is `length`, and every other value (SAFETY, RECITATION,
 * BLOCKLIST, PROHIBITED_CONTENT, SPII, OTHER, and values added later) is `content_filter`.
 * A choice that called a function finishes with `tool_calls` whatever the upstream said:
 * the upstream ends function-call turns with STOP (upstreams.md §1.3). Undefined when the
 * upstream gave no reason and no call was made (an unfinished stream chunk).
 */
export function mapGxFinishReason(finishReason: string | null | undefined, calledFunctions: boolean): ChatFinishReason | undefined {
  if (calledFunctions) return 'tool_calls';
  if (finishReason === undefined || finishReason === null || finishReason === '') return undefined;
  if (finishReason === 'STOP') return 'stop';
  return finishReason === 'MAX_TOKENS' ? 'length' : 'content_filter';
}

/** True for a finish reason the chat answer reports as `content_filter` (see {@link mapGxFinishReason}): the upstream's filters stopped it. */
export const isGxFilterStop = (finishReason: string | null | undefined): boolean => mapGxFinishReason(finishReason, false) === 'content_filter';

/** True for a part that carries output: text, a call, media, code or its result (an empty text part, as 3-generation models end with, carries none). */
function carriesOutput(part: GxPart): boolean {
  if (typeof part.text === 'string') return part.text !== '';
  return [part.functionCall, part.inlineData, part.fileData, part.executableCode, part.codeExecutionResult].some((field) => field !== undefined && field !== null);
}

/**
 * True when the upstream refused (the core may then try a fallback model, `fallbacks_on`): it
 * blocked the prompt (`promptFeedback.blockReason`, no candidate), or every candidate stopped
 * for a filter ({@link isGxFilterStop}: SAFETY, PROHIBITED_CONTENT, RECITATION…) without any output.
 */
export function gxRefused(response: GxGenerateContentResponse): boolean {
  const candidates = response.candidates ?? [];
  if (candidates.length === 0) return (response.promptFeedback?.blockReason ?? '') !== '';
  return candidates.every((candidate) => isGxFilterStop(candidate.finishReason) && !(candidate.content?.parts ?? []).some(carriesOutput));
}

const modalityDetails = (tokens: ModalityTokens | undefined) => ({
  text_tokens: tokens?.text ?? 0,
  audio_tokens: tokens?.audio ?? 0,
  image_tokens: tokens?.image ?? 0,
});

/**
 * The chat `usage` object for a core usage (spec part 1): every detail field present, 0 when
 * unknown; `total_tokens` is prompt plus completion, which equals the upstream's
 * `totalTokenCount` in every recorded response (it counts thoughts, as completion does).
 */
export function toChatCompletionUsage(usage: Usage): ChatCompletionUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, ...modalityDetails(usage.inputModalities) },
    completion_tokens_details: { ...modalityDetails(usage.outputModalities), reasoning_tokens: usage.reasoningTokens },
  };
}

/**
 * A candidate's parts as chat pieces: the message text (after `precedingText`, what the
 * message held before them), the thought text (undefined without any), the function calls,
 * and the parts' thought signatures as `reasoning_details` (upstreams.md §1.4): one on a
 * `functionCall` part names its call's id, one on any other part (the text, or the empty
 * text part 3-generation models end with) names none. `toGxContents` puts each back on the
 * part it came from when the turn is replayed.
 */
export function readGxCandidateParts(candidate: GxCandidate, precedingText = '') {
  let content = '';
  let reasoning: string | undefined;
  const toolCalls: ChatCompletionToolCall[] = [];
  const signatures: ChatReasoningDetail[] = [];
  for (const part of candidate.content?.parts ?? []) {
    const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '' ? part.thoughtSignature : undefined;
    if (part.functionCall !== undefined && part.functionCall !== null) {
      const call = toChatToolCall(part);
      toolCalls.push(call);
      if (signature !== undefined) signatures.push({ type: 'reasoning.encrypted', data: signature, id: call.id });
      continue;
    }
    // An image's signature is not carried: chat has the image as markdown, and it goes back with the stub.
    if (signature !== undefined && typeof part.text === 'string') signatures.push({ type: 'reasoning.encrypted', data: signature });
    // Thought images (interim drafts of 3-generation image models) are not answer content.
    if (part.thought === true) reasoning = typeof part.text === 'string' ? (reasoning ?? '') + part.text : reasoning;
    else content += renderGxPart(part, content === '' ? precedingText : content);
  }
  return { content, reasoning, toolCalls, signatures };
}

function toChoice(candidate: GxCandidate, position: number): ChatCompletionChoice {
  const { content, reasoning, toolCalls, signatures } = readGxCandidateParts(candidate);
  // gx reports a refusal as a finish reason (SAFETY...), never as text: `refusal` is always null.
  const message: ChatCompletionMessage = { role: 'assistant', content, refusal: null };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (signatures.length > 0) message.reasoning_details = signatures;
  return {
    index: candidate.index ?? position,
    message,
    logprobs: convertGxLogprobs(candidate.logprobsResult),
    // A non-streamed answer is complete, so no reason means a plain stop (reference-gateway.md §4.8).
    finish_reason: mapGxFinishReason(candidate.finishReason, toolCalls.length > 0) ?? 'stop',
  };
}

/**
 * Translates a `generateContent` response into a chat completion (spec part 1, "Chat
 * completion object"): id from `responseId` (else `chatcmpl-<requestId>`); one choice per
 * candidate; text parts joined, code and media rendered as markdown, thought text as
 * `reasoning_content`, function calls as `tool_calls`, thought signatures as `reasoning_details`.
 * @throws GatewayError 400 `prompt_blocked` when the prompt was blocked, 502 `empty_response`
 *   when there is no candidate, 502 `upstream_invalid_response` for a body of another shape,
 *   or the mapped upstream error for an `{error}` body.
 */
export function fromGxResponse(json: unknown, context: GxResponseContext): GxChatResult {
  const upstreamError = gxInBandError(json);
  if (upstreamError !== undefined) throw upstreamError;
  const parsed = readGxResponse(json);
  if (!parsed.success) throw invalidGxResponse(parsed.error);
  const response = parsed.data;
  const candidates = response.candidates ?? [];
  if (candidates.length === 0) throw gxPromptBlocked(response) ?? emptyGxResponse();

  const usage = convertGxUsage(response.usageMetadata, tallyGxProducedOutput(candidates));
  const answer: GxChatResult = {
    body: {
      id: response.responseId || `chatcmpl-${context.requestId}`,
      object: 'chat.completion',
      created: context.created,
      model: context.model,
      choices: candidates.map(toChoice),
      usage: toChatCompletionUsage(usage),
    },
    usage,
  };
  if (gxRefused(response)) answer.contentFiltered = true;
  return answer;
}
