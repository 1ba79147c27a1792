import { z } from 'zod';
import {
  emptyUsage,
  type ChatCompletionRequest,
  type OperationCall,
  type JsonResult,
  type StreamResult,
  type ProviderHost,
  type ResponsesRequest,
  type VendorFetchedUrl,
} from '../../core/index.js';
import { findUrlFields, isRecord, parseUpstreamAnswer, readUpstreamJsonBody, type PathPrefixOptions } from '../../core/kit/index.js';
import { callOpenAiCompatible, openAiErrorToGatewayError, rejectOpenAiError } from '../shared/openai-compatible/openai-compatible.js';
import { fromOpenAiChatUsage, fromOpenAiTokenUsage, openAiChatUsageSchema } from '../shared/openai-compatible/openai-usage.js';
import { createGpChatStreamDecoder } from './gp-chat-stream-decoder.js';
import { createGpResponsesStreamDecoder, gpResponseObjectSchema } from './gp-responses-stream-decoder.js';

// Where an OpenAI-format upstream fetches what the client names: chat and Responses images
// (`image_url`, a string or `{url}`), Responses files (`file_url`) and remote MCP servers
// (`server_url`, which the upstream connects to).
const urlKeys = new Set(['image_url', 'file_url', 'server_url']);

/** A chat or Responses request as the gp plugin prepares it: the client's request, and the URLs in it the upstream will fetch. */
export interface PreparedGpRequest<Request> {
  request: Request;
  vendorFetchedUrls: VendorFetchedUrl[];
}

/**
 * `prepare` of chat and Responses: finds, once per client request, the URLs it hands the
 * upstream to fetch, in `messages` (chat) or `input` and `tools` (Responses), each with its
 * field (`messages[1].content[0].image_url.url`). The rest of the request, `metadata`
 * included, is the client's own text and is not judged.
 */
export function prepareGpRequest<Request extends Record<string, unknown>>(request: Request): PreparedGpRequest<Request> {
  return { request, vendorFetchedUrls: ['messages', 'input', 'tools'].flatMap((section) => findUrlFields(request[section], (key) => urlKeys.has(key), section)) };
}

/**
 * POSTs `body` to `path` of the upstream, after checking the URLs the upstream will fetch
 * against the gateway's address policy (here, as `prepare` has no host to resolve names
 * with); a refused one is a 400 naming its field.
 */
async function callGp(host: ProviderHost, call: OperationCall<PreparedGpRequest<unknown>, PathPrefixOptions>, path: string, body: unknown) {
  await host.media.checkVendorFetchedUrls(call.request.vendorFetchedUrls, call.signal);
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

const emptyOrAbsent = (value: unknown): boolean => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * True when the upstream refused (the core may then try a fallback model, `fallbacks_on`):
 * every choice finished with `content_filter` without any text or tool call. Read by hand off
 * the parsed body: an ordinary answer is told apart by its first choice's finish reason.
 */
function gpRefused(json: unknown): boolean {
  const choices = isRecord(json) ? json.choices : undefined;
  if (!Array.isArray(choices) || choices.length === 0) return false;
  return choices.every((choice) => {
    if (!isRecord(choice) || choice.finish_reason !== 'content_filter') return false;
    const message = isRecord(choice.message) ? choice.message : {};
    return emptyOrAbsent(message.content) && emptyOrAbsent(message.tool_calls);
  });
}

// Non-stream bodies go out byte for byte, so the client sees exactly what the upstream said.
// No usage from the upstream: zeros flagged estimated, so the runner bills its own estimate.

/** `chat`: the chat completion passed through to an OpenAI-format upstream. */
export function createGpChatOperation(host: ProviderHost) {
  return async (call: OperationCall<PreparedGpRequest<ChatCompletionRequest>, PathPrefixOptions>): Promise<JsonResult | StreamResult> => {
    const { request } = call.request;
    const response = await callGp(host, call, '/chat/completions', toGpRequest(request, call.upstreamModel, call.stream));
    if (call.stream) {
      const includeUsage = request.stream_options?.include_usage === true;
      return { kind: 'stream', body: response.body, decoder: createGpChatStreamDecoder({ includeUsage }), framing: 'sse' };
    }
    const { text, json } = await readUpstreamJsonBody(response.body, 'a chat completion');
    rejectOpenAiError(json);
    const reported = parseUpstreamAnswer(json, gpCompletionSchema, 'a chat completion').usage;
    const usage = reported === undefined || reported === null ? emptyUsage('estimated') : fromOpenAiChatUsage(reported);
    return gpRefused(json) ? { kind: 'json', body: text, usage, contentFiltered: true } : { kind: 'json', body: text, usage };
  };
}

/**
 * `responses`: the client's request passed through to `/responses` of an OpenAI-format
 * upstream, every field kept and `model` replaced by the upstream model.
 */
export function createGpResponsesOperation(host: ProviderHost) {
  return async (call: OperationCall<PreparedGpRequest<ResponsesRequest>, PathPrefixOptions>): Promise<JsonResult | StreamResult> => {
    const response = await callGp(host, call, '/responses', { ...call.request.request, model: call.upstreamModel });
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
