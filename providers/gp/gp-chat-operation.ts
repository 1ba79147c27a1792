import {
  callOpenAiCompatible,
  emptyUsage,
  fromOpenAiChatUsage,
  parseUpstreamAnswer,
  readUpstreamJsonBody,
  rejectOpenAiError,
  type ChatCompletionRequest,
  type OperationCall,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
} from '../../core/index.js';
import { checkGpUrls } from './check-gp-urls.js';
import { createGpChatStreamDecoder } from './gp-chat-stream-decoder.js';
import { gpCompletionSchema } from './gp-schemas.js';
import { toGpRequest } from './to-gp-request.js';

/** `chat`: the chat completion passed through to an OpenAI-format upstream. */
export function createGpChatOperation(host: ProviderHost) {
  return async (call: OperationCall<ChatCompletionRequest, PathPrefixOptions>): Promise<OperationResult> => {
    await checkGpUrls(host, call.request, call.signal);
    const body = JSON.stringify(toGpRequest(call.request, call.upstreamModel, call.stream));
    const response = await callOpenAiCompatible(host, call, '/chat/completions', { body });
    if (call.stream) {
      const includeUsage = call.request.stream_options?.include_usage === true;
      return { kind: 'stream', body: response.body, decoder: createGpChatStreamDecoder({ includeUsage }), framing: 'sse' };
    }
    const { text, json } = await readUpstreamJsonBody(response.body, 'a chat completion');
    rejectOpenAiError(json);
    const usage = parseUpstreamAnswer(json, gpCompletionSchema, 'a chat completion').usage;
    // The body goes out byte for byte, so the client sees exactly what the upstream said.
    // No usage from the upstream: zeros flagged estimated, so the runner bills its own estimate.
    return { kind: 'json', body: text, usage: usage === undefined || usage === null ? emptyUsage('estimated') : fromOpenAiChatUsage(usage) };
  };
}
