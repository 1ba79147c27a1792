// An ISO base media file header as MP4 writers emit it: a 32-byte `ftyp` box (major brand
// isom, minor version 512, compatible isom iso2 avc1 mp41) and an empty `mdat` box. Enough
// for a type sniffer and a download test; no player will show it.
const ftyp = Buffer.concat([
  Buffer.from([0x00, 0x00, 0x00, 0x20]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0x00, 0x00, 0x02, 0x00]),
  Buffer.from('isomiso2avc1mp41', 'latin1'),
]);
const mdat = Buffer.concat([Buffer.from([0x00, 0x00, 0x00, 0x08]), Buffer.from('mdat', 'latin1')]);

/** What the fake serves at every video URL it hands out. */
export const sampleMp4: Uint8Array = Buffer.concat([ftyp, mdat]);
