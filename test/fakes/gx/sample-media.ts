/** A real 1×1 RGBA PNG (valid chunk CRCs), small enough to read in a test failure. */
export const tinyPngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** gx TTS output: headerless signed 16-bit little-endian mono PCM at 24 kHz (upstreams.md §1.8). */
export const pcmMimeType = 'audio/L16;codec=pcm;rate=24000';

const sampleRate = 24_000;

/** 50 ms of a 440 Hz tone in {@link pcmMimeType}, base64. */
export const tinyPcmBase64 = (() => {
  const samples = sampleRate / 20;
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate)), index * 2);
  }
  return pcm.toString('base64');
})();
