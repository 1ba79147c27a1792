import { z } from 'zod';
import { emptyUsage, GatewayError, speechContentTypes, tokenCount, type OperationCall, type ProviderHost, type SpeechRequest, type TranscriptFormat, type TranscriptionRequest, type Usage, type BytesResult, type JsonResult } from '../../core/index.js';
import {
  headerValue,
  invalidUpstreamAnswer,
  multipartBody,
  parseUpstreamAnswer,
  parseUpstreamJson,
  primeUpstreamBody,
  readUpstreamJsonAs,
  type PathPrefixOptions,
  type UpstreamRequestBody,
} from '../../core/kit/index.js';
import { callOpenAiCompatible, rejectOpenAiError } from '../shared/openai-compatible/openai-compatible.js';

// Lenient on purpose: transcripts are passed through byte for byte, so only the fields the
// gateway bills by are read, and anything else is tolerated.

const number = z.number().nullish();

/**
 * What the gateway reads of a `json` or `verbose_json` transcript: its length and its `usage`
 * (upstreams.md §2.6), `{type: "duration", seconds}` for whisper, `{type: "tokens",
 * input_tokens, input_token_details, output_tokens, total_tokens}` for the gpt-4o transcribe models.
 */
export const transcriptSchema = z.looseObject({
  duration: number,
  usage: z
    .looseObject({
      type: z.string().nullish(),
      seconds: number,
      input_tokens: number,
      output_tokens: number,
      total_tokens: number,
      input_token_details: z.looseObject({ text_tokens: number, audio_tokens: number }).nullish(),
    })
    .nullish(),
});

/**
 * The multipart form the upstream gets (upstreams.md §2.6): the file under its (possibly
 * completed) name and media type, `model` as the upstream model, `response_format` always,
 * and the optional fields the client sent, numbers as text and each timestamp granularity
 * as its own `timestamp_granularities[]` field, as OpenAI's own clients send them. The
 * platform's `Response` writes the body and its boundary.
 */
export async function toTranscriptionForm(request: TranscriptionRequest, upstreamModel: string): Promise<UpstreamRequestBody> {
  const form = new FormData();
  form.append('file', new Blob([request.file.data], { type: request.file.mimeType }), request.file.filename);
  form.append('model', upstreamModel);
  form.append('response_format', request.response_format);
  if (request.language !== undefined) form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  for (const granularity of request.timestamp_granularities ?? []) form.append('timestamp_granularities[]', granularity);
  return multipartBody(form);
}

const seconds = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/**
 * The usage of a transcription or translation, for `per_minute` (and token) prices:
 * - the audio's length as the upstream reports it, flagged `upstream`: `usage.seconds` of a
 *   `{type: "duration"}` usage first (what OpenAI bills, whole seconds rounded up: fixture
 *   openai-transcription-verbose.json says 37 for a `duration` of 36.71), else verbose_json's
 *   `duration` (translations report no usage);
 * - `{type: "tokens"}` usage as input (text and audio) and output tokens, flagged `upstream`;
 *   the minutes then come from the file's own length, so a per-minute price still applies;
 * - otherwise the file's own length, flagged `estimated` (text, srt and vtt say nothing);
 * - when that is unknown too, no minutes at all, flagged `estimated`: the gateway then bills
 *   the estimate it reserved by.
 * `facts` is the parsed json or verbose_json transcript, undefined for the text formats.
 */
export function readTranscriptionUsage(facts: z.output<typeof transcriptSchema> | undefined, fileSeconds: number | undefined): Usage {
  const usage = facts?.usage ?? undefined;
  const upstreamSeconds = (usage?.type === 'duration' ? seconds(usage.seconds) : undefined) ?? seconds(facts?.duration);
  const base = usage?.type === 'tokens' ? tokenUsage(usage) : emptyUsage(upstreamSeconds === undefined ? 'estimated' : 'upstream');
  const audioSeconds = upstreamSeconds ?? fileSeconds;
  return audioSeconds === undefined ? base : { ...base, minutes: audioSeconds / 60 };
}

function tokenUsage(usage: NonNullable<z.output<typeof transcriptSchema>['usage']>): Usage {
  const details = usage.input_token_details;
  return {
    ...emptyUsage('upstream'),
    inputTokens: tokenCount(usage.input_tokens),
    outputTokens: tokenCount(usage.output_tokens),
    ...(details === undefined || details === null ? {} : { inputModalities: { text: tokenCount(details.text_tokens), audio: tokenCount(details.audio_tokens) } }),
  };
}

/** Whether a transcript format is JSON (and says something about its audio). */
const isJsonTranscript = (format: TranscriptFormat): boolean => format === 'json' || format === 'verbose_json';

/**
 * The content type a transcript goes to the client with: the upstream's own when it names
 * the format's family (`application/json` for json and verbose_json, `text/...` for text,
 * srt and vtt; OpenAI sends vtt as `text/plain` or `text/vtt`), else the format's usual one.
 */
export function transcriptContentType(format: TranscriptFormat, upstreamContentType: string | undefined): string {
  const json = isJsonTranscript(format);
  const given = upstreamContentType?.trim() ?? '';
  if (json ? /^application\/([\w.+-]+\+)?json\b/i.test(given) : /^text\//i.test(given)) return given;
  return json ? 'application/json' : 'text/plain; charset=utf-8';
}

/**
 * `audio.transcribe` (`/audio/transcriptions`) and `audio.translate` (`/audio/translations`):
 * the form rebuilt for the upstream, and its transcript passed back byte for byte in the
 * format asked for (upstreams.md §2.6). A json or verbose_json answer must be a JSON object
 * that is not an error body; the text formats are taken as they come.
 */
export function createOpenAiAudioTranscriptionOperation(host: ProviderHost, path: '/audio/transcriptions' | '/audio/translations') {
  return async (call: OperationCall<TranscriptionRequest, PathPrefixOptions>): Promise<JsonResult> => {
    const format = call.request.response_format;
    const form = await toTranscriptionForm(call.request, call.upstreamModel);
    const response = await callOpenAiCompatible(host, call, path, { body: form });
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      // An answer past the channel's max_response_mb keeps its own code.
      throw GatewayError.is(error) && error.code === 'upstream_response_too_large' ? error : invalidUpstreamAnswer('a transcript', { cause: error });
    }
    let facts: z.output<typeof transcriptSchema> | undefined;
    if (isJsonTranscript(format)) {
      let json: unknown;
      try {
        json = parseUpstreamJson(text);
      } catch (error) {
        throw invalidUpstreamAnswer('a JSON transcript', { cause: error });
      }
      rejectOpenAiError(json);
      facts = parseUpstreamAnswer(json, transcriptSchema, 'a JSON transcript');
    }
    return {
      kind: 'json',
      body: text,
      contentType: transcriptContentType(format, headerValue(response, 'content-type')),
      usage: readTranscriptionUsage(facts, call.request.file.durationSeconds),
    };
  };
}

/**
 * `audio.speech`: the client's JSON to `/audio/speech` with `model` replaced by the upstream
 * model; the audio bytes come back unread and go to the client as they arrive, typed by the
 * requested format (upstreams.md §2.5). Billed by the input's characters (code points, as
 * the 4096-character limit counts them), which the upstream does not report.
 */
export function createOpenAiAudioSpeechOperation(host: ProviderHost) {
  return async (call: OperationCall<SpeechRequest, PathPrefixOptions>): Promise<BytesResult> => {
    const body = JSON.stringify({ ...call.request, model: call.upstreamModel });
    const response = await callOpenAiCompatible(host, call, '/audio/speech', { body });
    // A 200 that is JSON (or an event stream) is not audio: an error body, or a server that
    // ignored the request's format. Reading it is cheap, and another channel may do better.
    const upstreamType = headerValue(response, 'content-type') ?? '';
    if (/json|text\/event-stream/i.test(upstreamType)) {
      const text = await response.body.text().catch(() => '');
      rejectOpenAiError(readUpstreamJsonAs(text, z.unknown()));
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
