import { absent, isRecord, numberOrAbsent, readWithHandCheck, stringOrAbsent, type SchemaRead } from '../../core/index.js';
import { gxGenerateContentResponseSchema, type GxGenerateContentResponse } from './gx-schemas.js';

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
  return stringOrAbsent(candidate.finishReason) && stringOrAbsent(candidate.finishMessage) && numberOrAbsent(candidate.index) && absent(candidate.logprobsResult);
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
