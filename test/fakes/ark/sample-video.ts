const box = (type: string, payload: Buffer): Buffer => {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), payload]);
};

/**
 * The fake's "mp4" for a task: an ISO-BMFF `ftyp` box (major brand isom, minor version 512,
 * compatible isom, iso2, mp41, as MP4 writers emit it) and an `mdat` box naming the task, so
 * each task's bytes differ and a download can be matched to its task.
 */
export function sampleVideo(taskId: string): Buffer {
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1')), box('mdat', Buffer.from(`fake seedance video ${taskId}`, 'utf8'))]);
}
