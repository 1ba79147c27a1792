import {
  callOpenAiCompatible,
  emptyUsage,
  fromOpenAiTokenUsage,
  openAiErrorToGatewayError,
  parseUpstreamAnswer,
  readUpstreamJsonBody,
  rejectOpenAiError,
  type OperationCall,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
  type ResponsesRequest,
} from '../../core/index.js';
import { checkGpUrls } from './check-gp-urls.js';
import { createGpResponsesStreamDecoder } from './gp-responses-stream-decoder.js';
import { gpResponseObjectSchema } from './gp-schemas.js';

/**
 * `responses`: the client's request passed through to `/responses` of an OpenAI-format
 * upstream, every field kept and `model` replaced by the upstream model.
 */
export function createGpResponsesOperation(host: ProviderHost) {
  return async (call: OperationCall<ResponsesRequest, PathPrefixOptions>): Promise<OperationResult> => {
    await checkGpUrls(host, call.request, call.signal);
    const body = JSON.stringify({ ...call.request, model: call.upstreamModel });
    const response = await callOpenAiCompatible(host, call, '/responses', { body });
    if (call.stream) return { kind: 'stream', body: response.body, decoder: createGpResponsesStreamDecoder(), framing: 'sse' };

    const { text, json } = await readUpstreamJsonBody(response.body, 'a response');
    const object = parseUpstreamAnswer(json, gpResponseObjectSchema, 'a response');
    // A 200 body may still be a failure: a response whose status is failed, or an error body.
    if (object.status === 'failed') throw openAiErrorToGatewayError(object.error ?? { message: 'the upstream reported the response as failed' });
    rejectOpenAiError(json);
    // The body goes out byte for byte; without usage, zeros flagged estimated make the runner bill its own estimate.
    return {
      kind: 'json',
      body: text,
      usage: object.usage === undefined || object.usage === null ? emptyUsage('estimated') : fromOpenAiTokenUsage(object.usage),
      affinityKey: typeof object.id === 'string' && object.id !== '' ? object.id : undefined,
    };
  };
}
