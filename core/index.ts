/**
 * The public entry of Model Gateway's core: everything a provider plugin may import, and
 * the only module it imports from the gateway.
 */
export { GatewayError, type GatewayErrorOptions, type UpstreamFault } from './errors/gateway-error.js';
export { errorCodeRegistry, upstreamErrorCode, type GatewayErrorCode, type UpstreamErrorCode } from './errors/error-code-registry.js';
export { clipped, quoted } from './errors/client-text.js';
export {
  assetsUnavailable,
  emptyUpstreamAnswer,
  forbidden,
  imageConversionFailed,
  insufficientQuota,
  internalError,
  invalidRequest,
  jsonTooDeep,
  malformedUpstreamAnswer,
  notFound,
  noOutputForPrompt,
  promptBlocked,
  rateLimited,
  taskVanished,
  unauthorized,
  unavailable,
  upstreamAuthFailed,
  upstreamDeniedNamedResource,
  upstreamModelUnknown,
  upstreamFailed,
  upstreamStreamTruncated,
  videoNotFound,
  videoNotReady,
} from './errors/error-codes.js';
export { absent, isRecord, numberOrAbsent, ownEntry, stringOrAbsent } from './validation/value-shapes.js';
export { readWithHandCheck, type SchemaRead } from './validation/read-with-hand-check.js';
export { isBase64Text } from './validation/base64-text.js';
export { booleanField, expectedOneOf, maxSeed, seedField, wholeNumberField } from './validation/client-field-schemas.js';
export { fieldError, formatFieldPath, parseClientFields, type ClientFieldsOptions, type FieldPath } from './validation/parse-client-input.js';
export { exceedsJsonDepth, maxEmbeddedJsonDepth, parseEmbeddedJson } from './validation/json-depth.js';
export { readFormFields, type FormFieldKinds } from './validation/form-fields.js';
export { matchesModelPattern } from './routing/model-pattern.js';
export { emptyUsage, tokenCount, videoUsage, type ModalityTokens, type Usage } from './contracts/usage.js';
export { emptyTaskResult, failedTask, taskProgress } from './contracts/task-progress.js';
export type { SseFrame, StreamDecoder, StreamOutput } from './contracts/stream-decoder.js';
export { stopAfterFirstError, streamFailure } from './streaming/stop-after-first-error.js';
export { readJsonFrame, type JsonFrame } from './streaming/read-json-frame.js';
export { defineProvider, type ProviderPlugin, type ProviderPluginVersion1, type ProviderPluginVersion2 } from './contracts/provider/provider-plugin.js';
export { type ChannelContext, type ChannelTimeouts, type OperationCall, type OperationName } from './contracts/provider/operation-call.js';
export { type FetchedMedia, type MediaFetcher, type MediaFetchOptions, type UpstreamUrlStreamOptions, type VendorFetchedUrl } from './contracts/provider/media-fetcher.js';
export { type JsonResult, type OperationHandler, type OperationResult, type StreamResult, type BytesResult, type TaskAccepted, type TaskProgress, type TaskStatus } from './contracts/provider/operation-results.js';
export { type KeyValueStore, type ProviderHost, type ProviderLogger } from './contracts/provider/provider-host.js';
export { type Provider, type PreparedRequests, type RequestOf } from './contracts/provider/provider.js';
export { type UpstreamBody, type UpstreamHttp, type UpstreamRequest, type UpstreamResponse } from './contracts/provider/upstream-http.js';
export { defineTranslator, type StreamTranslation, type TranslatedRequest, type TranslationContext, type Translator } from './contracts/translator.js';
export type { OperationRequests } from './contracts/operation-requests.js';
export type { ChatCompletionRequest, ChatMessage } from './contracts/chat-completion-request.js';
export type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionDelta,
  ChatCompletionLogprobs,
  ChatCompletionMessage,
  ChatCompletionTokenLogprob,
  ChatCompletionToolCall,
  ChatCompletionToolCallDelta,
  ChatCompletionUsage,
  ChatFinishReason,
} from './contracts/chat-completion-response.js';
export type { ResponsesRequest } from './contracts/responses-request.js';
export type { MessagesContentBlock, MessagesMessage, MessagesRequest } from './contracts/messages-request.js';
export type { ImageRequest, ImageUpload } from './contracts/image-requests.js';
export type { VideoSubmitRequest, VideoTaskQuery } from './contracts/video-requests.js';
export {
  assetTypes,
  type AssetCreateRequest,
  type AssetGroupCreation,
  type AssetGroupQuery,
  type AssetGroupRecord,
  type AssetGroupType,
  type AssetQuery,
  type AssetRecord,
  type AssetStatus,
  type AssetType,
  type ValidationResultQuery,
  type ValidationResultRecord,
  type ValidationSessionCreation,
  type ValidationSessionRecord,
} from './contracts/asset-requests.js';
export {
  maxSpeechInputCharacters,
  speechContentTypes,
  speechVoices,
  transcriptFormats,
  type AudioUpload,
  type SpeechRequest,
  type TranscriptFormat,
  type TranscriptionRequest,
} from './contracts/audio-requests.js';
export { readAudioDuration } from './media/read-audio-duration.js';
export { sniffImageType } from './media/sniff-image-type.js';
export { checkImageBytes, fetchableImageTypes, fetchImage, readImageSourceText, sniffBase64ImageType, type ImageFormats, type ImageSourceText } from './media/image-source.js';
export { readDataUriBase64, type DataUriPayload } from './http/data-uri.js';
export { OncePerRequest } from './media/once-per-request.js';
export { openAiFetchedImageTypes, openAiImageTypes, sniffOpenAiImageType } from './media/openai-image-inputs.js';
export { appendUploadFile, imageUploadFile, type UploadFile } from './media/upload-file.js';
export type { NativeBatchEmbedRequest, NativeEmbedRequest, NativeGenerateRequest } from './contracts/native-requests.js';
export {
  describeUpstreamError,
  errorForUpstreamStatus,
  isChannelTrouble,
  readBodyExcerpt,
  retryAfterHeader,
  upstreamRefusal,
  upstreamStatusError,
} from './http/upstream-error.js';
export {
  bearerAuthorization,
  callUpstream,
  headerValue,
  isSuccessStatus,
  jsonBody,
  multipartBody,
  prefixedUpstreamUrl,
  sendUpstream,
  type UpstreamCall,
  type UpstreamRequestBody,
  type UpstreamStatusMapper,
} from './http/call-upstream.js';
export { pathPrefixOption, pathPrefixOptions, type PathPrefixOptions } from './validation/path-prefix-option.js';
export {
  describeOpenAiError,
  describeOpenAiErrorText,
  callOpenAiCompatible,
  openAiCompatibleOptionsSchema,
  openAiErrorBodySchema,
  openAiErrorDetailSchema,
  openAiErrorToGatewayError,
  openAiInBandError,
  openAiStatusError,
  readOpenAiError,
  readOpenAiErrorText,
  rejectOpenAiError,
  type OpenAiErrorDetail,
} from './http/openai-compatible.js';
export { googleApiKeyHeader, googleApiOptionsSchema, googleApiUrl, type GoogleApiOptions } from './http/google-api.js';
export {
  describeGoogleErrorText,
  describeGoogleRpcCode,
  googleErrorBodySchema,
  googleErrorDetails,
  googleKeyRefused,
  googleNamedResourceDenial,
  googleRetryAfterSeconds,
  googleRpcStatusSchema,
  googleStatusError,
  readGoogleErrorText,
  type GoogleRpcStatus,
} from './http/google-api-errors.js';
export {
  fromOpenAiChatUsage,
  fromOpenAiTokenUsage,
  openAiChatUsageSchema,
  openAiTokenUsageSchema,
  type OpenAiChatUsage,
  type OpenAiTokenUsage,
} from './http/openai-usage.js';
export { arkErrorBodySchema, arkErrorDetailSchema, arkErrorStatus, describeArkError, isArkSensitiveContent, readArkErrorBody, type ArkErrorDetail } from './http/ark-api-errors.js';
export {
  dashScopeCodeStatus,
  dashScopeErrorBodySchema,
  describeDashScopeError,
  describeDashScopeErrorText,
  isDashScopeModelCode,
  isDashScopeModerationCode,
  readDashScopeErrorBody,
  type DashScopeErrorBody,
} from './http/dashscope-api-errors.js';
export { callDashScope, dashScopeError, dashScopeStatusError, type DashScopeRefusal } from './http/dashscope-api.js';
export { primeUpstreamBody } from './http/prime-upstream-body.js';
export { videoContentResult } from './http/video-content-result.js';
export { findUrlFields } from './http/find-url-fields.js';
export { mediaErrorAboutField } from './http/media-errors.js';
export { invalidUpstreamAnswer, parseUpstreamAnswer, parseUpstreamJson, readUpstreamAnswer, readUpstreamJsonAs, readUpstreamJsonBody } from './http/upstream-json.js';
export { redactSecrets } from './logging/create-logger.js';
