import type { ChatCompletionRequest, FetchedMedia, OperationCall, ProviderHost, JsonResult, StreamResult } from '../../../core/index.js';
import { mediaErrorAboutField, readUpstreamAnswer } from '../../../core/kit/index.js';
import type { GoogleApiOptions } from '../../shared/google-api/google-api.js';
import { callGx, checkGxFileUris } from '../call-gx.js';
import { gxResponseExpected } from '../gx-error.js';
import { fromGxResponse } from './from-gx-response.js';
import { collectMediaReferences, gxAllowedMimeTypes } from './gx-chat-media.js';
import { createGxChatStreamDecoder } from './gx-chat-stream-decoder.js';
import { toGxRequest } from './to-gx-request.js';

/** `chat`: a chat completion translated to the native generate call and back. */
export function createGxChatOperation(host: ProviderHost) {
  return async (call: OperationCall<ChatCompletionRequest, GoogleApiOptions>): Promise<JsonResult | StreamResult> => {
    const media = new Map<string, FetchedMedia>();
    for (const { source, field } of collectMediaReferences(call.request)) {
      try {
        media.set(source, await host.media.fetch(source, { allowedMimeTypes: gxAllowedMimeTypes, signal: call.signal }));
      } catch (error) {
        throw mediaErrorAboutField(error, field);
      }
    }
    await checkGxFileUris(host, call.request.extra_body?.gx, 'extra_body.gx', call.signal);
    const { model, body } = toGxRequest(call.request, { upstreamModel: call.upstreamModel, media });
    const created = Math.floor(host.now() / 1000);
    const response = await callGx(host, call, model, call.stream ? 'streamGenerateContent' : 'generateContent', body);
    if (call.stream) {
      const includeUsage = call.request.stream_options?.include_usage === true;
      const decoder = createGxChatStreamDecoder({ model: call.model, requestId: call.requestId, created, includeUsage });
      return { kind: 'stream', body: response.body, decoder, framing: 'sse' };
    }
    const json = await readUpstreamAnswer(response.body, gxResponseExpected);
    return { kind: 'json', ...fromGxResponse(json, { model: call.model, requestId: call.requestId, created }) };
  };
}
