/** OpenAI speech audio: 24 kHz, 16-bit signed little-endian, mono (upstreams.md §2.5). */
export const speechSampleRate = 24_000;

/** `seconds` of a 440 Hz tone as headerless 24 kHz 16-bit mono PCM, deterministic to the byte. */
export function pcmTone(seconds: number): Buffer {
  const samples = Math.round(seconds * speechSampleRate);
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / speechSampleRate)), index * 2);
  }
  return pcm;
}

/** A RIFF/WAVE file around 16-bit mono `pcm`: the canonical 44-byte header, then the samples. */
export function wavFile(pcm: Uint8Array, sampleRate = speechSampleRate): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * The length in seconds of a WAV file: its data chunk's size over the byte rate of its `fmt `
 * chunk. A data size past the end of the file (streamed WAVs write 0xFFFFFFFF) counts the
 * bytes actually there. Undefined when `bytes` is not a RIFF/WAVE file.
 */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 12 <= file.length) byteRate = file.readUInt32LE(body + 8);
    if (id === 'data') {
      if (byteRate === undefined || byteRate === 0) return undefined;
      return Math.min(size, file.length - body) / byteRate;
    }
    offset = body + size + (size % 2);
  }
  return undefined;
}
