import { z } from 'zod';

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

/** `:embedContent` response. */
export const gxEmbedContentResponseSchema = z.object({
  embedding: z.object({ values: z.array(z.number()) }),
});

/** `:batchEmbedContents` response: one embedding per request, in order. */
export const gxBatchEmbedContentsResponseSchema = z.object({
  embeddings: z.array(z.object({ values: z.array(z.number()) })),
});

export type GxPart = z.output<typeof gxPartSchema>;
export type GxUsageMetadata = z.output<typeof gxUsageMetadataSchema>;
export type GxLogprobsResult = z.output<typeof gxLogprobsResultSchema>;
export type GxCandidate = z.output<typeof gxCandidateSchema>;
export type GxGenerateContentResponse = z.output<typeof gxGenerateContentResponseSchema>;
