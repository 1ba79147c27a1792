import type { AudioUpload } from '../../core/contracts/audio-requests.js';
import { emptyUsage, type Usage } from '../../core/contracts/usage.js';

/**
 * The byte rate assumed for audio whose length cannot be read: 128 kbit/s, a common MP3 and
 * AAC rate. Most speech recordings are smaller per second (a 32 kbit/s Opus clip would really
 * last four times as long), so the estimate errs low rather than refusing a token with little
 * quota; the upload limit bounds it (25 MiB reads as about 27 minutes).
 */
export const assumedBytesPerSecond = 16_000;

/** The characters a speech request is billed by: Unicode code points, as the 4096-character limit counts them. */
export const speechCharacters = (input: string): number => [...input].length;

/** The usage to reserve quota by for `POST /v1/audio/speech`: the input's characters. */
export function estimateSpeechUsage(input: string): Usage {
  return { ...emptyUsage('estimated'), characters: speechCharacters(input) };
}

/**
 * The length of an upload in seconds for the reservation: read from the file itself, or, when
 * its container says nothing, its size at {@link assumedBytesPerSecond}.
 */
export function estimatedUploadSeconds(file: AudioUpload): number {
  return file.durationSeconds ?? file.data.byteLength / assumedBytesPerSecond;
}

/**
 * The usage to reserve quota by for a transcription or translation: the minutes of the
 * upload. It is also what is billed when neither the upstream nor the file states a length.
 */
export function estimateTranscriptionUsage(file: AudioUpload): Usage {
  return { ...emptyUsage('estimated'), minutes: estimatedUploadSeconds(file) / 60 };
}
