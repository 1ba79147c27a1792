import type { TranscriptionUsage } from './openai-behaviour.js';

type JsonObject = Record<string, unknown>;

/** What every transcription format is written from. */
export interface Transcript {
  task: 'transcribe' | 'translate';
  /** The language's English name, lower case, as verbose_json writes it. */
  language: string;
  text: string;
  /** The audio's length; undefined leaves `duration` out, while timings still need `timingSeconds`. */
  duration: number | undefined;
  /** The length the words and segments are spread over. */
  timingSeconds: number;
  /** Undefined leaves `usage` out. */
  usage: TranscriptionUsage | undefined;
  temperature: number;
}

// Whisper reports times as 32-bit floats widened to doubles: 0.66 arrives as 0.6600000262260437
// and the duration as 36.709999084472656 (fixture openai-transcription-verbose.json).
const float32 = Math.fround;

/** Each word with its share of the audio, trimmed of surrounding punctuation as whisper's words are. */
export function timedWords(transcript: Transcript): Array<{ word: string; start: number; end: number }> {
  const words = transcript.text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
  const share = transcript.timingSeconds / Math.max(1, words.length);
  return words.map((word, index) => ({ word, start: float32(index * share), end: float32((index + 1) * share) }));
}

/** One segment per sentence, each lasting in proportion to its words. */
export function timedSegments(transcript: Transcript): Array<{ text: string; start: number; end: number }> {
  const sentences = transcript.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.trim() !== '');
  const wordCounts = sentences.map((sentence) => Math.max(1, sentence.split(/\s+/).length));
  const total = wordCounts.reduce((sum, count) => sum + count, 0);
  let elapsed = 0;
  return sentences.map((text, index) => {
    const start = elapsed;
    elapsed += (transcript.timingSeconds * wordCounts[index]!) / total;
    return { text, start, end: elapsed };
  });
}

/** `{"text", "usage"}`, the default `json` format (upstreams.md §2.6). */
export const jsonTranscription = (transcript: Transcript): JsonObject => ({
  text: transcript.text,
  ...(transcript.usage === undefined ? {} : { usage: transcript.usage }),
});

/**
 * `verbose_json` with the keys of fixture openai-transcription-verbose.json in its order;
 * `words` and `segments` only for the granularities asked for (default: segment).
 */
export function verboseTranscription(transcript: Transcript, granularities: string[]): JsonObject {
  const segments = timedSegments(transcript).map((segment, id) => ({
    id,
    seek: 0,
    start: float32(segment.start),
    end: float32(segment.end),
    // Whisper segment texts start with the space that separated them from the previous one.
    text: ` ${segment.text}`,
    tokens: segment.text.split(/\s+/).map((_, index) => 50364 + id * 100 + index),
    temperature: transcript.temperature,
    avg_logprob: float32(-0.25),
    compression_ratio: float32(1.2),
    no_speech_prob: float32(0.01),
  }));
  return {
    task: transcript.task,
    language: transcript.language,
    ...(transcript.duration === undefined ? {} : { duration: float32(transcript.duration) }),
    text: transcript.text,
    ...(granularities.includes('word') ? { words: timedWords(transcript) } : {}),
    ...(granularities.includes('segment') ? { segments } : {}),
    ...(transcript.usage === undefined ? {} : { usage: transcript.usage }),
  };
}

/** `diarized_json` of gpt-4o-transcribe-diarize: one speaker, one segment per sentence (upstreams.md §2.6). */
export function diarizedTranscription(transcript: Transcript): JsonObject {
  const segments = timedSegments(transcript).map((segment, index) => ({
    type: 'transcript.text.segment',
    id: `seg_${String(index + 1).padStart(3, '0')}`,
    start: float32(segment.start),
    end: float32(segment.end),
    text: segment.text,
    speaker: 'A',
  }));
  return {
    task: 'transcribe',
    ...(transcript.duration === undefined ? {} : { duration: float32(transcript.duration) }),
    text: transcript.text,
    segments,
    ...(transcript.usage === undefined ? {} : { usage: transcript.usage }),
  };
}

/** SubRip: numbered blocks `1\n00:00:00,000 --> 00:00:03,320\n<text>\n\n` (upstreams.md §2.6). */
export const srtTranscription = (transcript: Transcript): string =>
  timedSegments(transcript)
    .map((segment, index) => `${index + 1}\n${clock(segment.start, ',')} --> ${clock(segment.end, ',')}\n${segment.text}\n\n`)
    .join('');

/** WebVTT: `WEBVTT\n\n`, then `00:00:00.000 --> 00:00:03.320\n<text>\n\n` per segment (upstreams.md §2.6). */
export const vttTranscription = (transcript: Transcript): string =>
  `WEBVTT\n\n${timedSegments(transcript)
    .map((segment) => `${clock(segment.start, '.')} --> ${clock(segment.end, '.')}\n${segment.text}\n\n`)
    .join('')}`;

function clock(seconds: number, separator: ',' | '.'): string {
  const milliseconds = Math.round(seconds * 1000);
  const two = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor(milliseconds / 60_000) % 60;
  const wholeSeconds = Math.floor(milliseconds / 1000) % 60;
  return `${two(hours)}:${two(minutes)}:${two(wholeSeconds)}${separator}${String(milliseconds % 1000).padStart(3, '0')}`;
}
