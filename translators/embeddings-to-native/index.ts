import { defineTranslator } from '../../core/index.js';
import { fromNativeEmbeddings } from './from-native-embeddings.js';
import { toNativeEmbedRequest } from './to-native-embed-request.js';

/**
 * `embeddings-to-native`: OpenAI's `POST /v1/embeddings` served by a family that speaks the
 * native `embedContent` and `batchEmbedContents` (translators/embeddings-to-native/README.md).
 * Embeddings never stream, so it has no stream translation.
 */
export default defineTranslator({
  name: 'embeddings-to-native',
  client: 'embeddings',
  served: ['native.embed', 'native.batchEmbed'],
  request: (request) => toNativeEmbedRequest(request),
  answer: fromNativeEmbeddings,
});
