import { z } from 'zod';
import {
  callOpenAiCompatible,
  emptyUsage,
  findUrlFields,
  fromOpenAiChatUsage,
  fromOpenAiTokenUsage,
  openAiChatUsageSchema,
  openAiErrorToGatewayError,
  parseUpstreamAnswer,
  readUpstreamJsonBody,
  rejectOpenAiError,
  type ChatCompletionRequest,
  type OperationCall,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
  type ResponsesRequest,
} from '../../core/index.js';
import { createGpChatStreamDecoder } from './gp-chat-stream-decoder.js';
import { createGpResponsesStreamDecoder, gpResponseObjectSchema } from './gp-responses-stream-decoder.js';

// Where an OpenAI-format upstream fetches what the client names: chat and Responses images
// (`image_url`, a string or `{url}`), Responses files (`file_url`) and remote MCP servers
// (`server_url`, which the upstream connects to).
const urlKeys = new Set(['image_url', 'file_url', 'server_url']);

/**
 * POSTs `body` to `path` of the upstream, after checking the URLs the client's request hands
 * the upstream to fetch, in `messages` (chat) or `input` and `tools` (Responses), against the
 * gateway's address policy; a refused one is a 400 naming its field
 * (`messages[1].content[0].image_url.url`). The rest of the request, `metadata` included, is
 * the client's own text and is not judged.
 */
async function callGp(host: ProviderHost, call: OperationCall<Record<string, unknown>, PathPrefixOptions>, path: string, body: unknown) {
  const urls = ['messages', 'input', 'tools'].flatMap((section) => findUrlFields(call.request[section], (key) => urlKeys.has(key), section));
  await host.media.checkVendorFetchedUrls(urls, call.signal);
  return callOpenAiCompatible(host, call, path, { body: JSON.stringify(body) });
}

/**
 * The client's chat request as the upstream gets it: every field, unknown ones included, with
 * `model` replaced by the upstream model, except `extra_body.gx`, gx's native passthrough (spec
 * part 1), which an OpenAI-format upstream refuses as an unknown field: the Messages
 * translator puts its thinking budget there for gx, and the same request reaches gp. A stream
 * always asks for usage, because billing needs it whether or not the client wants to see it.
 */
export function toGpRequest(request: ChatCompletionRequest, upstreamModel: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request, model: upstreamModel };
  if (request.extra_body !== undefined && request.extra_body !== null) {
    const { gx: _gx, ...otherFields } = request.extra_body;
    if (Object.keys(otherFields).length > 0) body.extra_body = otherFields;
    else delete body.extra_body;
  }
  if (stream) body.stream_options = { ...(request.stream_options ?? {}), include_usage: true };
  return body;
}

/** What the chat operation reads of a non-stream `chat.completion`. */
const gpCompletionSchema = z.looseObject({ usage: openAiChatUsageSchema.nullish() });

// Non-stream bodies go out byte for byte, so the client sees exactly what the upstream said.
// No usage from the upstream: zeros flagged estimated, so the runner bills its own estimate.

/** `chat`: the chat completion passed through to an OpenAI-format upstream. */
export function createGpChatOperation(host: ProviderHost) {
  return async (call: OperationCall<ChatCompletionRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const response = await callGp(host, call, '/chat/completions', toGpRequest(call.request, call.upstreamModel, call.stream));
    if (call.stream) {
      const includeUsage = call.request.stream_options?.include_usage === true;
      return { kind: 'stream', body: response.body, decoder: createGpChatStreamDecoder({ includeUsage }), framing: 'sse' };
    }
    const { text, json } = await readUpstreamJsonBody(response.body, 'a chat completion');
    rejectOpenAiError(json);
    const usage = parseUpstreamAnswer(json, gpCompletionSchema, 'a chat completion').usage;
    return { kind: 'json', body: text, usage: usage === undefined || usage === null ? emptyUsage('estimated') : fromOpenAiChatUsage(usage) };
  };
}

/**
 * `responses`: the client's request passed through to `/responses` of an OpenAI-format
 * upstream, every field kept and `model` replaced by the upstream model.
 */
export function createGpResponsesOperation(host: ProviderHost) {
  return async (call: OperationCall<ResponsesRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const response = await callGp(host, call, '/responses', { ...call.request, model: call.upstreamModel });
    if (call.stream) return { kind: 'stream', body: response.body, decoder: createGpResponsesStreamDecoder(), framing: 'sse' };

    const { text, json } = await readUpstreamJsonBody(response.body, 'a response');
    const object = parseUpstreamAnswer(json, gpResponseObjectSchema, 'a response');
    // A 200 body may still be a failure: a response whose status is failed, or an error body.
    if (object.status === 'failed') throw openAiErrorToGatewayError(object.error ?? { message: 'the upstream reported the response as failed' });
    rejectOpenAiError(json);
    return {
      kind: 'json',
      body: text,
      usage: object.usage === undefined || object.usage === null ? emptyUsage('estimated') : fromOpenAiTokenUsage(object.usage),
      affinityKey: typeof object.id === 'string' && object.id !== '' ? object.id : undefined,
    };
  };
}
