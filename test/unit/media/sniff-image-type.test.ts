import t from 'tap';

import { sniffImageType } from '../../../core/kit/index.js';
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1');
const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(12)]);

t.test('an image type is told by its bytes, and with a list only a type in it is answered', async (t) => {
  t.equal(sniffImageType(png), 'image/png');
  t.equal(sniffImageType(png, ['image/png', 'image/jpeg']), 'image/png');
  t.equal(sniffImageType(gif), 'image/gif');
  t.equal(sniffImageType(gif, ['image/png', 'image/jpeg']), undefined);
  t.equal(sniffImageType(bmp), 'image/bmp');
  t.equal(sniffImageType(Buffer.from('BM')), undefined, 'two letters alone are not a BMP');
  t.equal(sniffImageType(Buffer.from('{"not":"an image"}')), undefined);
});
