import {
  callOpenAiCompatible,
  headerValue,
  invalidUpstreamAnswer,
  parseUpstreamJson,
  rejectOpenAiError,
  type OperationCall,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
  type TranscriptionRequest,
} from '../../core/index.js';
import { transcriptSchema } from './openai-audio-schemas.js';
import { isJsonTranscript, readTranscriptionUsage, transcriptContentType, type TranscriptFacts } from './read-transcription-usage.js';
import { toTranscriptionForm } from './to-transcription-form.js';

/**
 * `audio.transcribe` (`/audio/transcriptions`) and `audio.translate` (`/audio/translations`):
 * the form rebuilt for the upstream, and its transcript passed back byte for byte in the
 * format asked for (upstreams.md §2.6). A json or verbose_json answer must be a JSON object
 * that is not an error body; the text formats are taken as they come.
 */
export function createOpenAiAudioTranscriptionOperation(host: ProviderHost, path: '/audio/transcriptions' | '/audio/translations') {
  return async (call: OperationCall<TranscriptionRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const format = call.request.response_format;
    const form = await toTranscriptionForm(call.request, call.upstreamModel);
    const response = await callOpenAiCompatible(host, call, path, { body: form });
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw invalidUpstreamAnswer('a transcript', { cause: error });
    }
    let facts: TranscriptFacts | undefined;
    if (isJsonTranscript(format)) {
      let json: unknown;
      try {
        json = parseUpstreamJson(text);
      } catch (error) {
        throw invalidUpstreamAnswer('a JSON transcript', { cause: error });
      }
      rejectOpenAiError(json);
      const parsed = transcriptSchema.safeParse(json);
      if (!parsed.success) throw invalidUpstreamAnswer('a JSON transcript', { cause: parsed.error });
      facts = parsed.data;
    }
    return {
      kind: 'json',
      body: text,
      contentType: transcriptContentType(format, headerValue(response, 'content-type')),
      usage: readTranscriptionUsage(facts, call.request.file.durationSeconds),
    };
  };
}
