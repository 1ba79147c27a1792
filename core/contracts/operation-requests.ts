import type { AssetCreateRequest, AssetGroupCreation, AssetGroupQuery, AssetQuery, ValidationResultQuery, ValidationSessionCreation } from './asset-requests.js';
import type { SpeechRequest, TranscriptionRequest } from './audio-requests.js';
import type { ChatCompletionRequest } from './chat-completion-request.js';
import type { EmbeddingsRequest } from './embeddings-request.js';
import type { ImageRequest } from './image-requests.js';
import type { MessagesRequest } from './messages-request.js';
import type { NativeBatchEmbedRequest, NativeEmbedRequest, NativeGenerateRequest } from './native-requests.js';
import type { ResponsesRequest } from './responses-request.js';
import type { VideoSubmitRequest, VideoTaskQuery } from './video-requests.js';

/** Each operation's standard request format: the spec's client format for its route. */
export interface OperationRequests {
  /** `POST /v1/chat/completions`. */
  chat: ChatCompletionRequest;
  /** `POST /v1/responses`. */
  responses: ResponsesRequest;
  /** `POST /v1/messages`: the Anthropic Messages format, served through a translator to `chat`. */
  messages: MessagesRequest;
  /** `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
  'native.generate': NativeGenerateRequest;
  /** `POST /v1beta/models/{model}:embedContent`. */
  'native.embed': NativeEmbedRequest;
  /** `POST /v1beta/models/{model}:batchEmbedContents`. */
  'native.batchEmbed': NativeBatchEmbedRequest;
  /** `POST /v1/embeddings`, in the OpenAI format. */
  embeddings: EmbeddingsRequest;
  /** `POST /v1/images/generations`. */
  'images.generate': ImageRequest;
  /** `POST /v1/images/edits`. */
  'images.edit': ImageRequest;
  /** `POST /v1/video/generations`: starts a task upstream and answers with its handle. */
  'video.submit': VideoSubmitRequest;
  /** Asks the upstream how a task is doing (the task route, and the background poller). */
  'video.status': VideoTaskQuery;
  /** The finished video's bytes (`/v1/video/generations/download`). */
  'video.content': VideoTaskQuery;
  /** The moderation record of a task (`/v1/video/generations/moderation-result/{id}`). */
  'video.moderation': VideoTaskQuery;
  /** `POST /v1/audio/speech`. */
  'audio.speech': SpeechRequest;
  /** `POST /v1/audio/transcriptions`. */
  'audio.transcribe': TranscriptionRequest;
  /** `POST /v1/audio/translations`. */
  'audio.translate': TranscriptionRequest;
  /** `POST /v1/asset-groups`: answers an `AssetGroupRecord`. */
  'assets.createGroup': AssetGroupCreation;
  /** `DELETE /v1/asset-groups/{group_id}`. */
  'assets.deleteGroup': AssetGroupQuery;
  /** `POST /v1/assets`: answers an `AssetRecord`. */
  'assets.create': AssetCreateRequest;
  /** `GET /v1/assets/{virtual_id}`: answers an `AssetRecord`. */
  'assets.get': AssetQuery;
  /** `DELETE /v1/assets/{virtual_id}`. */
  'assets.delete': AssetQuery;
  /** `POST /v1/visual-validate/session`: answers a `ValidationSessionRecord`. */
  'assets.createValidationSession': ValidationSessionCreation;
  /** `POST /v1/visual-validate/result`: answers a `ValidationResultRecord`. */
  'assets.getValidationResult': ValidationResultQuery;
}
