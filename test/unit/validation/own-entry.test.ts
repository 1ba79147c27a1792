import t from 'tap';
import { findInlineMedia } from '../../../core/billing/find-inline-media.js';
import { mimeTypeFromPath } from '../../../core/http/media-type.js';
import { ownEntry } from '../../../core/kit/index.js';
import { audioFileType } from '../../../plugins/audio/audio-file-types.js';
import { readWnFlatRequest } from '../../../providers/wn-hx/read-wn-flat-request.js';

// A lookup table keyed by what a client or an upstream wrote must not answer with what every
// object inherits: `constructor` and `toString` are names a client can send.
const inherited = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

t.test('ownEntry answers a table’s own entries and nothing it inherits', async (t) => {
  const table = { png: 'image/png' };
  t.equal(ownEntry(table, 'png'), 'image/png');
  for (const key of inherited) t.equal(ownEntry(table, key), undefined, key);
});

t.test('a URL path ending in an inherited name suggests no media type', async (t) => {
  t.equal(mimeTypeFromPath('/a/photo.PNG'), 'image/png');
  for (const key of inherited) t.equal(mimeTypeFromPath(`/a/file.${key}`), undefined, key);
});

t.test('an audio upload typed by an inherited name is refused, not named after a function', async (t) => {
  t.match(audioFileType('speech', 'audio/mpeg'), { filename: 'speech.mp3' });
  for (const key of inherited) t.equal(audioFileType('speech', key), undefined, key);
});

t.test('an inline file named with an inherited extension is estimated as a plain file', async (t) => {
  const part = (filename: string) => ({ type: 'input_file', filename, file_data: 'data:application/octet-stream;base64,AAAA' });
  const file = (filename: string) => findInlineMedia({ input: [{ role: 'user', content: [part(filename)] }] });
  const plain = file('notes.bin')?.[0]?.kind;
  t.ok(plain !== undefined, 'the plain file is found');
  for (const key of inherited) t.equal(file(`notes.${key}`)?.[0]?.kind, plain, key);
});

t.test('an upstream refusal naming an inherited field keeps the upstream’s name for it', async (t) => {
  const job = readWnFlatRequest({ model: 'wn2.5-t2v-preview', prompt: 'a fox' } as never, 't2v');
  t.equal(job.clientField('parameters.size'), 'size');
  for (const key of inherited) t.equal(job.clientField(key), key, key);
});
