import { pcmTone, speechSampleRate, wavFile } from './wav-audio.js';

/** The audio formats of `POST /v1/audio/speech` (upstreams.md §2.5). */
export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

/** The Content-Type OpenAI answers each speech format with (upstreams.md §2.5). */
export const speechContentTypes: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** How long the fake "speaks" per input character, and at most. */
const secondsPerCharacter = 0.05;
const longestSpeechSeconds = 10;

/** The length of the fake's speech for `input` at `speed`: 50 ms a character, capped at 10 s, over the speed. */
export const speechSeconds = (input: string, speed = 1): number => Math.min(input.length * secondsPerCharacter, longestSpeechSeconds) / speed;

/**
 * Deterministic audio of `seconds` in `format`. WAV is a real PCM file of a 440 Hz tone and
 * pcm the same samples without header; the others start with their format's magic and repeat
 * its frame headers (ID3 + MPEG frames, `fLaC` + STREAMINFO, Ogg pages of Opus silence,
 * ADTS frames) so that a client can recognise them, not necessarily decode them.
 */
export function speechAudio(format: SpeechFormat, seconds: number): Buffer {
  switch (format) {
    case 'wav':
      return wavFile(pcmTone(seconds));
    case 'pcm':
      return pcmTone(seconds);
    case 'mp3':
      return mp3(seconds);
    case 'flac':
      return flac(seconds);
    case 'opus':
      return oggOpus(seconds);
    case 'aac':
      return adtsAac(seconds);
  }
}

/** An ID3v2.4 tag with no frames, then silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, mono). */
function mp3(seconds: number): Buffer {
  const tag = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
  const frameLength = 417;
  const frames = Math.max(1, Math.ceil((seconds * 44_100) / 1152));
  const frame = Buffer.alloc(frameLength);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat([tag, ...Array.from({ length: frames }, () => frame)]);
}

/** `fLaC`, a last-block STREAMINFO for 24 kHz 16-bit mono, then zero bytes in proportion to the length. */
function flac(seconds: number): Buffer {
  const totalSamples = BigInt(Math.round(seconds * speechSampleRate));
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  const channelsLessOne = 0n;
  const bitsLessOne = 15n;
  info.writeBigUInt64BE((BigInt(speechSampleRate) << 44n) | (channelsLessOne << 41n) | (bitsLessOne << 36n) | totalSamples, 10);
  const blockHeader = Buffer.from([0x80, 0x00, 0x00, info.length]);
  return Buffer.concat([Buffer.from('fLaC', 'ascii'), blockHeader, info, Buffer.alloc(Math.ceil(seconds * 4000))]);
}

/** An Ogg Opus stream: OpusHead, OpusTags, then pages of the 20 ms Opus silence frame `F8 FF FE`. */
function oggOpus(seconds: number): Buffer {
  const serial = 0x0fa1e0a1;
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head.writeUInt8(1, 8);
  head.writeUInt8(1, 9);
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(speechSampleRate, 12);
  const vendor = Buffer.from('fake-openai-upstream', 'ascii');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);

  const pages = [oggPage(0x02, 0n, serial, 0, [head]), oggPage(0x00, 0n, serial, 1, [tags])];
  const silence = Buffer.from([0xf8, 0xff, 0xfe]);
  const packets = Math.max(1, Math.ceil(seconds / 0.02));
  const packetsPerPage = 50;
  for (let first = 0; first < packets; first += packetsPerPage) {
    const count = Math.min(packetsPerPage, packets - first);
    const last = first + count >= packets;
    const granule = BigInt(preSkip + (first + count) * 960);
    pages.push(oggPage(last ? 0x04 : 0x00, granule, serial, pages.length, Array.from({ length: count }, () => silence)));
  }
  return Buffer.concat(pages);
}

/** One Ogg page holding whole `packets`, laced in 255-byte segments, with its CRC. */
function oggPage(headerType: number, granule: bigint, serial: number, sequence: number, packets: Buffer[]): Buffer {
  const lacing = packets.flatMap((packet) => [...Array.from({ length: Math.floor(packet.length / 255) }, () => 255), packet.length % 255]);
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'ascii');
  header.writeUInt8(headerType, 5);
  header.writeBigUInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(lacing.length, 26);
  const page = Buffer.concat([header, Buffer.from(lacing), ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0. */
function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** ADTS frames (sync `FF F1`, AAC LC, 24 kHz, mono) of 1024 samples each, with zero payloads. */
function adtsAac(seconds: number): Buffer {
  const frameLength = 13;
  const frame = Buffer.alloc(frameLength);
  const profile = 1;
  const frequencyIndex = 6;
  const channels = 1;
  frame[0] = 0xff;
  frame[1] = 0xf1;
  frame[2] = (profile << 6) | (frequencyIndex << 2) | (channels >> 2);
  frame[3] = ((channels & 3) << 6) | (frameLength >> 11);
  frame[4] = (frameLength >> 3) & 0xff;
  frame[5] = ((frameLength & 7) << 5) | 0x1f;
  frame[6] = 0xfc;
  const frames = Math.max(1, Math.ceil((seconds * speechSampleRate) / 1024));
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}
