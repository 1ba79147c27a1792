import {
  callOpenAiCompatible,
  emptyUsage,
  headerValue,
  invalidUpstreamAnswer,
  parseUpstreamJson,
  primeUpstreamBody,
  rejectOpenAiError,
  speechContentTypes,
  type OperationCall,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
  type SpeechRequest,
} from '../../core/index.js';

/**
 * `audio.speech`: the client's JSON to `/audio/speech` with `model` replaced by the upstream
 * model; the audio bytes come back unread and go to the client as they arrive, typed by the
 * requested format (upstreams.md §2.5). Billed by the input's characters (code points, as
 * the 4096-character limit counts them), which the upstream does not report.
 */
export function createOpenAiAudioSpeechOperation(host: ProviderHost) {
  return async (call: OperationCall<SpeechRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const body = JSON.stringify({ ...call.request, model: call.upstreamModel });
    const response = await callOpenAiCompatible(host, call, '/audio/speech', { body });
    // A 200 that is JSON (or an event stream) is not audio: an error body, or a server that
    // ignored the request's format. Reading it is cheap, and another channel may do better.
    const upstreamType = headerValue(response, 'content-type') ?? '';
    if (/json|text\/event-stream/i.test(upstreamType)) {
      const text = await response.body.text().catch(() => '');
      let json: unknown;
      try {
        json = parseUpstreamJson(text);
      } catch {
        json = undefined;
      }
      rejectOpenAiError(json);
      throw invalidUpstreamAnswer('audio');
    }
    // The first audio bytes are read before the answer is committed: a connection that breaks
    // or goes silent before them fails over to another channel and costs the client nothing.
    const audio = await primeUpstreamBody(response.body);
    if (audio === undefined) throw invalidUpstreamAnswer('audio');
    return {
      kind: 'bytes',
      body: audio,
      contentType: speechContentTypes[call.request.response_format],
      usage: { ...emptyUsage('estimated'), characters: [...call.request.input].length },
    };
  };
}
