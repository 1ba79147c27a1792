/**
 * `model-gateway`, the contract a provider plugin is written against: the plugin and provider
 * types, the operations' requests and results, usage, and the gateway's errors (one class,
 * the code registry, a factory per code). The helpers a provider calls are the other entry,
 * `model-gateway/kit` (`core/kit/index.ts`); a plugin imports nothing else of the gateway.
 */
export { GatewayError, type GatewayErrorOptions, type UpstreamFault } from './errors/gateway-error.js';
export { errorCodeRegistry, upstreamErrorCode, type GatewayErrorCode, type UpstreamErrorCode } from './errors/error-code-registry.js';
export {
  assetsUnavailable,
  emptyUpstreamAnswer,
  imageConversionFailed,
  internalError,
  invalidRequest,
  jsonTooDeep,
  malformedUpstreamAnswer,
  notFound,
  noOutputForPrompt,
  promptBlocked,
  taskVanished,
  unavailable,
  upstreamAuthFailed,
  upstreamDeniedNamedResource,
  upstreamModelUnknown,
  upstreamFailed,
  upstreamStreamTruncated,
  videoNotFound,
  videoNotReady,
} from './errors/error-codes.js';
export { emptyUsage, tokenCount, videoUsage, type ModalityTokens, type Usage } from './contracts/usage.js';
export { emptyTaskResult, failedTask, taskProgress } from './contracts/task-progress.js';
export type { SseFrame, StreamDecoder, StreamOutput } from './contracts/stream-decoder.js';
export { defineProvider, type ProviderPlugin, type ProviderPluginVersion1, type ProviderPluginVersion2 } from './contracts/provider/provider-plugin.js';
export { type ChannelContext, type ChannelTimeouts, type OperationCall, type OperationName } from './contracts/provider/operation-call.js';
export { type FetchedMedia, type MediaFetcher, type MediaFetchOptions, type UpstreamUrlStreamOptions, type VendorFetchedUrl } from './contracts/provider/media-fetcher.js';
export { type JsonResult, type OperationHandler, type OperationResult, type StreamResult, type BytesResult, type TaskAccepted, type TaskProgress, type TaskStatus } from './contracts/provider/operation-results.js';
export { type KeyValueStore, type ProviderHost, type ProviderLogger } from './contracts/provider/provider-host.js';
export { type Provider, type PreparedRequests, type RequestOf } from './contracts/provider/provider.js';
export { type UpstreamBody, type UpstreamHttp, type UpstreamRequest, type UpstreamResponse } from './contracts/provider/upstream-http.js';
export { defineTranslator, type StreamTranslation, type TranslatedRequest, type TranslationContext, type Translator } from './contracts/translator.js';
export type { OperationRequests } from './contracts/operation-requests.js';
export type { OperationResults } from './contracts/operation-results.js';
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
  ChatReasoningDetail,
} from './contracts/chat-completion-response.js';
export type { ResponsesRequest } from './contracts/responses-request.js';
export type { ResponsesContentPart, ResponsesInputItem, ResponsesToolOutput } from './contracts/responses-input-items.js';
export type { ResponsesTool, ResponsesToolChoice } from './contracts/responses-tools.js';
export { outputItemIdFor, responseIdFor, responseIdOfItem, type OutputItemKind } from './conversations/responses-ids.js';
export type { EmbeddingsRequest } from './contracts/embeddings-request.js';
export type { MessagesContentBlock, MessagesMessage, MessagesRequest } from './contracts/messages-request.js';
export type { ImageRequest, ImageUpload } from './contracts/image-requests.js';
export { toImagesUsage, type ImagesUsage } from './contracts/images-usage.js';
export type { VideoSubmitRequest, VideoTaskQuery } from './contracts/video-requests.js';
export {
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
  speechContentTypes,
  type AudioUpload,
  type SpeechRequest,
  type TranscriptFormat,
  type TranscriptionRequest,
} from './contracts/audio-requests.js';
export type { NativeBatchEmbedRequest, NativeEmbedRequest, NativeGenerateRequest } from './contracts/native-requests.js';
