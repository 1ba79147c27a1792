import {
  emptyUsage,
  readUpstreamJsonBody,
  type GoogleApiOptions,
  type NativeBatchEmbedRequest,
  type NativeEmbedRequest,
  type NativeGenerateRequest,
  type OperationCall,
  type OperationResult,
  type ProviderHost,
  type UpstreamResponse,
  type Usage,
} from '../../../core/index.js';
import { callGx } from '../call-gx.js';
import { checkGxFileUris } from '../check-gx-file-uris.js';
import { createGxNativeStreamDecoder } from './gx-native-stream-decoder.js';
import { readGxNativeUsage } from './read-gx-native-usage.js';
import { toGxNativeRequest } from './to-gx-native-request.js';

/** A forwarded body's text (sent to the client byte for byte) and its JSON (for usage). */
const readGxBody = (response: UpstreamResponse) => readUpstreamJsonBody(response.body, 'a generateContent response');

/** `native.generate`: generateContent and streamGenerateContent, passed through with the model rewritten (its `fileUri` URLs checked first). */
export function createGxGenerateOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeGenerateRequest, GoogleApiOptions>): Promise<OperationResult> => {
    const { model, body } = toGxNativeRequest(call.request, call.upstreamModel);
    await checkGxFileUris(host, call.request, '', call.signal);
    if (call.stream) {
      const response = await callGx(host, call, model, 'streamGenerateContent', body);
      return { kind: 'stream', body: response.body, decoder: createGxNativeStreamDecoder(), framing: 'sse' };
    }
    const { text, json } = await readGxBody(await callGx(host, call, model, 'generateContent', body));
    return { kind: 'json', body: text, usage: readGxNativeUsage(json) };
  };
}

/** Embeddings report no usage (reference/upstreams.md §1.9): bill the characters embedded, estimated at four to a token. */
function embeddingUsage(contents: readonly unknown[]): Usage {
  const usage = emptyUsage('estimated');
  usage.inputTokens = Math.ceil(Buffer.byteLength(JSON.stringify(contents)) / 4);
  return usage;
}

/** `native.embed`: embedContent, with the body's model (when given) rewritten to the upstream's. */
export function createGxEmbedOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeEmbedRequest, GoogleApiOptions>): Promise<OperationResult> => {
    const body = call.request.model === undefined ? call.request : { ...call.request, model: `models/${call.upstreamModel}` };
    const { text } = await readGxBody(await callGx(host, call, call.upstreamModel, 'embedContent', body));
    return { kind: 'json', body: text, usage: embeddingUsage([call.request.content]) };
  };
}

/** `native.batchEmbed`: batchEmbedContents; each request must name the path's model upstream, so each is rewritten. */
export function createGxBatchEmbedOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeBatchEmbedRequest, GoogleApiOptions>): Promise<OperationResult> => {
    const requests = call.request.requests.map((entry) => ({ ...entry, model: `models/${call.upstreamModel}` }));
    const { text } = await readGxBody(await callGx(host, call, call.upstreamModel, 'batchEmbedContents', { ...call.request, requests }));
    return { kind: 'json', body: text, usage: embeddingUsage(call.request.requests.map((entry) => entry.content)) };
  };
}
