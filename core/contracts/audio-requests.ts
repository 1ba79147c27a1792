import { z } from 'zod';

/** The voices of spec part 1's speech endpoint. */
export const speechVoices = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] as const;

/** Speech formats and the content type each is sent with (reference/upstreams.md §2.5). */
export const speechContentTypes = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
} as const;

/** The longest speech input, in characters (spec part 1, Limits). */
export const maxSpeechInputCharacters = 4096;

const speechFormats = Object.keys(speechContentTypes) as [keyof typeof speechContentTypes, ...Array<keyof typeof speechContentTypes>];

/** `POST /v1/audio/speech`, the standard format of the `audio.speech` operation. Strict: a misspelt field is a 400. */
export const speechRequestSchema = z.strictObject({
  model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
  input: z
    .string({ error: 'expected the text to speak' })
    .min(1, { error: 'must not be empty' })
    .refine((input) => [...input].length <= maxSpeechInputCharacters, {
      error: `expected at most ${maxSpeechInputCharacters} characters; split longer text into several requests`,
    }),
  voice: z.enum(speechVoices, { error: `expected one of ${speechVoices.join(', ')}` }),
  response_format: z.enum(speechFormats, { error: `expected one of ${speechFormats.join(', ')}` }).default('mp3'),
  speed: z.number({ error: 'expected a number from 0.25 to 4' }).min(0.25, { error: 'expected at least 0.25' }).max(4, { error: 'expected at most 4' }).optional(),
});

export type SpeechRequest = z.output<typeof speechRequestSchema>;

/** Transcript formats of the transcription and translation endpoints (reference/upstreams.md §2.6). */
export const transcriptFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptFormat = (typeof transcriptFormats)[number];

/** The uploaded audio of a transcription or translation. */
export interface AudioUpload {
  /** The file name the client gave, e.g. `speech.wav`. */
  filename: string;
  /** The media type, from the part's header or else the file name. */
  mimeType: string;
  data: Buffer;
  /** The length of the audio read from the file itself; undefined when it cannot be read. */
  durationSeconds: number | undefined;
}

/**
 * `POST /v1/audio/transcriptions` and `/v1/audio/translations` (multipart), the standard
 * format of `audio.transcribe` and `audio.translate`, after the route has read the form.
 */
export interface TranscriptionRequest {
  model: string;
  file: AudioUpload;
  response_format: TranscriptFormat;
  /** ISO-639-1 language of the audio (transcriptions only). */
  language?: string;
  prompt?: string;
  temperature?: number;
  /** `word` and/or `segment` (transcriptions with `verbose_json` only). */
  timestamp_granularities?: Array<'word' | 'segment'>;
}
