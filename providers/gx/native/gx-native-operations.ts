import { emptyUsage, type NativeBatchEmbedRequest, type NativeEmbedRequest, type NativeGenerateRequest, type OperationCall, type ProviderHost, type UpstreamResponse, type Usage, type JsonResult, type StreamResult } from '../../../core/index.js';
import { readUpstreamJsonBody } from '../../../core/kit/index.js';
import type { GoogleApiOptions } from '../../shared/google-api/google-api.js';
import { callGx, checkGxFileUris, type GxRequest } from '../call-gx.js';
import { convertGxUsage, tallyGxProducedOutput } from '../convert-gx-usage.js';
import { gxRefused } from '../chat/from-gx-response.js';
import { gxResponseExpected } from '../gx-error.js';
import { gxGenerateContentResponseSchema } from '../gx-schemas.js';
import { parseGxThinkingSuffix } from '../gx-thinking.js';
import { createGxNativeStreamDecoder } from './gx-native-stream-decoder.js';

/**
 * The native generate request to forward for a native client request: the body as the
 * client sent it, the thinking suffix of the model id taken off the upstream model (spec
 * part 1, "Native endpoints", thinking (3)) and, when the client set no
 * `generationConfig.thinkingConfig` of its own, turned into one (reference-gateway.md §6).
 * The client's body is not changed.
 */
export function toGxNativeRequest(request: NativeGenerateRequest, upstreamModel: string): GxRequest {
  const { model, thinkingConfig } = parseGxThinkingSuffix(upstreamModel);
  const generationConfig = request.generationConfig as Record<string, unknown> | undefined;
  if (thinkingConfig === undefined || generationConfig?.thinkingConfig !== undefined) return { model, body: request };
  return { model, body: { ...request, generationConfig: { ...generationConfig, thinkingConfig } } };
}

/**
 * The usage of a native `generateContent` answer that is forwarded to the client as it is:
 * from its `usageMetadata`, with the inline images it carries counted. Zeros marked
 * `estimated` when the body has no usage or is not a generate response.
 */
export function readGxNativeUsage(json: unknown): Usage {
  return readGxNativeAnswer(json).usage;
}

/** What the gateway reads of a forwarded native answer: its usage (see {@link readGxNativeUsage}), and whether it is a refusal ({@link gxRefused}). */
function readGxNativeAnswer(json: unknown): { usage: Usage; contentFiltered: boolean } {
  const parsed = gxGenerateContentResponseSchema.safeParse(json);
  if (!parsed.success) return { usage: emptyUsage('estimated'), contentFiltered: false };
  return { usage: convertGxUsage(parsed.data.usageMetadata, tallyGxProducedOutput(parsed.data.candidates)), contentFiltered: gxRefused(parsed.data) };
}

/** A forwarded body's text (sent to the client byte for byte) and its JSON (for usage). */
const readGxBody = (response: UpstreamResponse) => readUpstreamJsonBody(response.body, gxResponseExpected);

/** `native.generate`: generateContent and streamGenerateContent, passed through with the model rewritten (its `fileUri` URLs checked first). */
export function createGxGenerateOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeGenerateRequest, GoogleApiOptions>): Promise<JsonResult | StreamResult> => {
    const { model, body } = toGxNativeRequest(call.request, call.upstreamModel);
    await checkGxFileUris(host, call.request, '', call.signal);
    if (call.stream) {
      const response = await callGx(host, call, model, 'streamGenerateContent', body);
      return { kind: 'stream', body: response.body, decoder: createGxNativeStreamDecoder(), framing: 'sse' };
    }
    const { text, json } = await readGxBody(await callGx(host, call, model, 'generateContent', body));
    const { usage, contentFiltered } = readGxNativeAnswer(json);
    return contentFiltered ? { kind: 'json', body: text, usage, contentFiltered } : { kind: 'json', body: text, usage };
  };
}

/** Embeddings report no usage (reference/upstreams.md §1.9): bill the characters embedded, estimated at four to a token. */
function embeddingUsage(contents: readonly unknown[]): Usage {
  return { ...emptyUsage('estimated'), inputTokens: Math.ceil(Buffer.byteLength(JSON.stringify(contents)) / 4) };
}

/** `native.embed`: embedContent, with the body's model (when given) rewritten to the upstream's. */
export function createGxEmbedOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeEmbedRequest, GoogleApiOptions>): Promise<JsonResult> => {
    const body = call.request.model === undefined ? call.request : { ...call.request, model: `models/${call.upstreamModel}` };
    const { text } = await readGxBody(await callGx(host, call, call.upstreamModel, 'embedContent', body));
    return { kind: 'json', body: text, usage: embeddingUsage([call.request.content]) };
  };
}

/** `native.batchEmbed`: batchEmbedContents; each request must name the path's model upstream, so each is rewritten. */
export function createGxBatchEmbedOperation(host: ProviderHost) {
  return async (call: OperationCall<NativeBatchEmbedRequest, GoogleApiOptions>): Promise<JsonResult> => {
    const requests = call.request.requests.map((entry) => ({ ...entry, model: `models/${call.upstreamModel}` }));
    const { text } = await readGxBody(await callGx(host, call, call.upstreamModel, 'batchEmbedContents', { ...call.request, requests }));
    return { kind: 'json', body: text, usage: embeddingUsage(call.request.requests.map((entry) => entry.content)) };
  };
}
