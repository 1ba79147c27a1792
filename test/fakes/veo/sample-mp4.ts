const box = (type: string, payload: Buffer): Buffer => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
};

/**
 * The bytes the fake serves for a generated video: an ISO-BMFF `ftyp` box (major brand
 * `mp42`, compatible `mp41` and `isom`), so sniffers see an mp4, then an `mdat` box naming
 * the file, so each video is told apart. Not playable.
 */
export function sampleMp4(fileId: string): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('mp42', 'latin1'), Buffer.alloc(4), Buffer.from('mp41isom', 'latin1')]));
  return Buffer.concat([ftyp, box('mdat', Buffer.from(`fake veo video ${fileId}`, 'utf8'))]);
}
