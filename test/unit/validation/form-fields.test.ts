import t from 'tap';
import { readFormFields } from '../../../core/validation/form-fields.js';

t.test('a form’s text fields are read as the JSON values they stand for', async (t) => {
  const read = readFormFields(
    { watermark: ' TRUE ', stream: 'false', seed: ' -7 ', n: '2', contents: '[{"parts":[]}]', prompt: 'a cat' },
    { booleans: ['watermark', 'stream'], integers: ['seed', 'n'], json: ['contents'] },
  );
  t.strictSame(read, { watermark: true, stream: false, seed: -7, n: 2, contents: [{ parts: [] }], prompt: 'a cat' });
});

t.test('a value that does not read as its kind stays text, for the schema to refuse by name', async (t) => {
  const fields = { watermark: 'yes', seed: '1.5', contents: '{not json', prompt: 'true' };
  t.strictSame(readFormFields(fields, { booleans: ['watermark'], integers: ['seed'], json: ['contents'] }), fields);
});
