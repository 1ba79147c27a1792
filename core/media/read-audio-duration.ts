/**
 * The length in seconds of an audio file (wav, mp3, flac, ogg, m4a, webm…), read from its
 * own headers and frames; undefined when the container cannot be read or states no length.
 * Transcription is billed per minute, and the upstream does not always say how long the
 * audio was. The parser is imported on the first call: only transcriptions need it, and
 * loaded at start it would hold some 10 MiB of a gateway's resident memory.
 */
export async function readAudioDuration(data: Uint8Array, mimeType?: string): Promise<number | undefined> {
  try {
    const { parseBuffer } = await import('music-metadata');
    const metadata = await parseBuffer(data, mimeType === undefined ? undefined : { mimeType, size: data.byteLength }, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  } catch {
    return undefined;
  }
}
