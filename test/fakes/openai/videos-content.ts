/** A box of the ISO base media file format: 32-bit size, 4-letter type, payload. */
function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

/**
 * The fake's "mp4" for a video: an `ftyp` box (brand isom, compatible isom and mp42, so
 * anything that sniffs bytes sees video/mp4) and a `free` box holding the video's id, so a
 * test can tell whose bytes it got. Not playable; nothing here decodes video.
 */
export function fakeMp4(videoId: string): Buffer {
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isommp42', 'latin1')), box('free', Buffer.from(videoId, 'utf8'))]);
}

/** The fake's preview image for the `thumbnail` and `spritesheet` variants: a RIFF/WEBP header and the video's id. */
export function fakeWebp(videoId: string): Buffer {
  const payload = Buffer.concat([Buffer.from('WEBP', 'latin1'), Buffer.from(videoId, 'utf8')]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}
