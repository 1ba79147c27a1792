import type { ChatCompletionRequest } from './chat-completion-request.js';
import type { NativeBatchEmbedRequest, NativeEmbedRequest, NativeGenerateRequest } from './native-requests.js';

/** Each operation's standard request format: the spec's client format for its route. */
export interface OperationRequests {
  /** `POST /v1/chat/completions`. */
  chat: ChatCompletionRequest;
  /** `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
  'native.generate': NativeGenerateRequest;
  /** `POST /v1beta/models/{model}:embedContent`. */
  'native.embed': NativeEmbedRequest;
  /** `POST /v1beta/models/{model}:batchEmbedContents`. */
  'native.batchEmbed': NativeBatchEmbedRequest;
}
