import { z } from 'zod';

// Lenient on purpose: transcripts are passed through byte for byte, so only the fields the
// gateway bills by are read, and anything else is tolerated.

const number = z.number().nullish();

/**
 * The `usage` of a transcription (upstreams.md §2.6): `{type: "duration", seconds}` for
 * whisper, `{type: "tokens", input_tokens, input_token_details, output_tokens, total_tokens}`
 * for the gpt-4o transcribe models.
 */
export const transcriptionUsageSchema = z.looseObject({
  type: z.string().nullish(),
  seconds: number,
  input_tokens: number,
  output_tokens: number,
  total_tokens: number,
  input_token_details: z.looseObject({ text_tokens: number, audio_tokens: number }).nullish(),
});

export type TranscriptionUsage = z.output<typeof transcriptionUsageSchema>;

/** What the gateway reads of a `json` or `verbose_json` transcript: its length and usage. */
export const transcriptSchema = z.looseObject({
  duration: number,
  usage: transcriptionUsageSchema.nullish(),
});
