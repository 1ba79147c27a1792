import { emptyUsage, tokenCount, type TranscriptFormat, type Usage } from '../../core/index.js';
import type { TranscriptionUsage } from './openai-audio-schemas.js';

const seconds = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** What a transcript said about its own audio: `duration` (verbose_json) and `usage`. */
export interface TranscriptFacts {
  duration?: number | null;
  usage?: TranscriptionUsage | null;
}

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
export function readTranscriptionUsage(facts: TranscriptFacts | undefined, fileSeconds: number | undefined): Usage {
  const usage = facts?.usage ?? undefined;
  const upstreamSeconds = (usage?.type === 'duration' ? seconds(usage.seconds) : undefined) ?? seconds(facts?.duration);
  const tokens = usage?.type === 'tokens' ? tokenUsage(usage) : undefined;
  if (upstreamSeconds !== undefined) return { ...(tokens ?? emptyUsage('upstream')), minutes: upstreamSeconds / 60 };
  const fileMinutes = fileSeconds === undefined ? {} : { minutes: fileSeconds / 60 };
  if (tokens !== undefined) return { ...tokens, ...fileMinutes };
  return { ...emptyUsage('estimated'), ...fileMinutes };
}

function tokenUsage(usage: TranscriptionUsage): Usage {
  const details = usage.input_token_details;
  return {
    ...emptyUsage('upstream'),
    inputTokens: tokenCount(usage.input_tokens),
    outputTokens: tokenCount(usage.output_tokens),
    ...(details === undefined || details === null ? {} : { inputModalities: { text: tokenCount(details.text_tokens), audio: tokenCount(details.audio_tokens) } }),
  };
}

/** Whether a transcript format is JSON (and says something about its audio). */
export const isJsonTranscript = (format: TranscriptFormat): boolean => format === 'json' || format === 'verbose_json';

/**
 * The content type a transcript goes to the client with: the upstream's own when it names
 * the format's family (`application/json` for json and verbose_json, `text/...` for text,
 * srt and vtt; OpenAI sends vtt as `text/plain` or `text/vtt`), else the format's usual one.
 */
export function transcriptContentType(format: TranscriptFormat, upstreamContentType: string | undefined): string {
  const json = isJsonTranscript(format);
  const given = upstreamContentType?.trim();
  if (given !== undefined && given !== '') {
    if (json && /^application\/([\w.+-]+\+)?json\b/i.test(given)) return given;
    if (!json && /^text\//i.test(given)) return given;
  }
  return json ? 'application/json' : 'text/plain; charset=utf-8';
}
