import { z } from 'zod';

import { absent, isRecord, numberOrAbsent, readWithHandCheck, stringOrAbsent, type SchemaRead } from '../../core/kit/index.js';
// Lenient on purpose: every field is optional and unknown fields are accepted, because the
// upstream adds fields (turnToken, urlContextMetadata, ...) faster than any gateway follows
// (reference/upstreams.md §1.3; the recorded fixtures carry `turnToken`). They are dropped
// from the parsed value rather than copied into it (z.object, not z.looseObject): nothing
// reads them, responses pass the upstream's text on where it must stay whole, and copying
// them cost every stream frame a walk over its unknown keys.

/** One part of upstream content: exactly one payload kind, plus the `thought` flags. */
export const gxPartSchema = z.object({
  text: z.string().nullish(),
  /** True on a thought-summary part (only sent when `includeThoughts` is on). */
  thought: z.boolean().nullish(),
  /** Opaque base64 the upstream wants back on the same part of the next request. */
  thoughtSignature: z.string().nullish(),
  inlineData: z.object({ mimeType: z.string().nullish(), data: z.string().nullish() }).nullish(),
  fileData: z.object({ mimeType: z.string().nullish(), fileUri: z.string().nullish() }).nullish(),
  functionCall: z
    .looseObject({ id: z.string().nullish(), name: z.string().nullish(), args: z.record(z.string(), z.unknown()).nullish() })
    .nullish(),
  executableCode: z.object({ language: z.string().nullish(), code: z.string().nullish() }).nullish(),
  codeExecutionResult: z.object({ outcome: z.string().nullish(), output: z.string().nullish() }).nullish(),
});

/** Token count of one modality (`TEXT`, `IMAGE`, `AUDIO`, `VIDEO`, `DOCUMENT`; any case). */
export const gxModalityTokenCountSchema = z.object({ modality: z.string().nullish(), tokenCount: z.number().nullish() });

const modalityTokenCounts = z.array(gxModalityTokenCountSchema).nullish();

/** `usageMetadata`: cumulative on every stream chunk of the upstream. */
export const gxUsageMetadataSchema = z.object({
  promptTokenCount: z.number().nullish(),
  candidatesTokenCount: z.number().nullish(),
  totalTokenCount: z.number().nullish(),
  /** Thinking tokens; not part of `candidatesTokenCount` but part of `totalTokenCount`. */
  thoughtsTokenCount: z.number().nullish(),
  cachedContentTokenCount: z.number().nullish(),
  /** Tokens of tool results the upstream fed itself (search results); billed as prompt. */
  toolUsePromptTokenCount: z.number().nullish(),
  promptTokensDetails: modalityTokenCounts,
  candidatesTokensDetails: modalityTokenCounts,
  cacheTokensDetails: modalityTokenCounts,
  toolUsePromptTokensDetails: modalityTokenCounts,
});

const logprobsCandidate = z.object({ token: z.string().nullish(), tokenId: z.number().nullish(), logProbability: z.number().nullish() });

/** `candidates[].logprobsResult`, present when `responseLogprobs` was asked for. */
export const gxLogprobsResultSchema = z.object({
  topCandidates: z.array(z.object({ candidates: z.array(logprobsCandidate).nullish() })).nullish(),
  chosenCandidates: z.array(logprobsCandidate).nullish(),
});

/** One candidate answer. The last stream chunk may carry `content: {role}` without parts. */
export const gxCandidateSchema = z.object({
  content: z.object({ role: z.string().nullish(), parts: z.array(gxPartSchema).nullish() }).nullish(),
  finishReason: z.string().nullish(),
  finishMessage: z.string().nullish(),
  index: z.number().nullish(),
  logprobsResult: gxLogprobsResultSchema.nullish(),
});

/** A `generateContent` response, and equally one `streamGenerateContent` chunk. */
export const gxGenerateContentResponseSchema = z.object({
  candidates: z.array(gxCandidateSchema).nullish(),
  /** Set when the prompt itself was blocked; there are then no candidates. */
  promptFeedback: z.object({ blockReason: z.string().nullish(), blockReasonMessage: z.string().nullish() }).nullish(),
  usageMetadata: gxUsageMetadataSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});

export type GxPart = z.output<typeof gxPartSchema>;
export type GxUsageMetadata = z.output<typeof gxUsageMetadataSchema>;
export type GxLogprobsResult = z.output<typeof gxLogprobsResultSchema>;
export type GxCandidate = z.output<typeof gxCandidateSchema>;
export type GxGenerateContentResponse = z.output<typeof gxGenerateContentResponseSchema>;

function plainPart(part: unknown): boolean {
  return (
    isRecord(part) &&
    stringOrAbsent(part.text) &&
    (absent(part.thought) || typeof part.thought === 'boolean') &&
    stringOrAbsent(part.thoughtSignature) &&
    absent(part.inlineData) &&
    absent(part.fileData) &&
    absent(part.functionCall) &&
    absent(part.executableCode) &&
    absent(part.codeExecutionResult)
  );
}

function plainCandidate(candidate: unknown): boolean {
  if (!isRecord(candidate)) return false;
  const content = candidate.content;
  if (!absent(content)) {
    if (!isRecord(content) || !stringOrAbsent(content.role)) return false;
    if (!absent(content.parts) && !(Array.isArray(content.parts) && content.parts.every(plainPart))) return false;
  }
  const plainFields = stringOrAbsent(candidate.finishReason) && stringOrAbsent(candidate.finishMessage) && numberOrAbsent(candidate.index);
  return plainFields && absent(candidate.logprobsResult);
}

const plainModalityCounts = (list: unknown): boolean =>
  absent(list) || (Array.isArray(list) && list.every((entry) => isRecord(entry) && stringOrAbsent(entry.modality) && numberOrAbsent(entry.tokenCount)));

function plainUsage(usage: unknown): boolean {
  if (absent(usage)) return true;
  return (
    isRecord(usage) &&
    numberOrAbsent(usage.promptTokenCount) &&
    numberOrAbsent(usage.candidatesTokenCount) &&
    numberOrAbsent(usage.totalTokenCount) &&
    numberOrAbsent(usage.thoughtsTokenCount) &&
    numberOrAbsent(usage.cachedContentTokenCount) &&
    numberOrAbsent(usage.toolUsePromptTokenCount) &&
    plainModalityCounts(usage.promptTokensDetails) &&
    plainModalityCounts(usage.candidatesTokensDetails) &&
    plainModalityCounts(usage.cacheTokensDetails) &&
    plainModalityCounts(usage.toolUsePromptTokensDetails)
  );
}

/**
 * True when a response holds only text parts, plain usage and the ids, each of a type the
 * schema accepts, with no prompt feedback, media, calls, code or logprobs. Such a response
 * is what the schema would read, save the unknown fields it drops, which nothing reads.
 */
function plainResponse(json: unknown): json is GxGenerateContentResponse {
  return (
    isRecord(json) &&
    (absent(json.candidates) || (Array.isArray(json.candidates) && json.candidates.every(plainCandidate))) &&
    absent(json.promptFeedback) &&
    plainUsage(json.usageMetadata) &&
    stringOrAbsent(json.modelVersion) &&
    stringOrAbsent(json.responseId)
  );
}

/**
 * Reads a `generateContent` response or one stream chunk: the common response (text, usage,
 * ids) is checked by hand, anything else goes through the schema (see `readWithHandCheck`).
 */
export const readGxResponse = (json: unknown): SchemaRead<GxGenerateContentResponse> => readWithHandCheck(json, plainResponse, gxGenerateContentResponseSchema);
