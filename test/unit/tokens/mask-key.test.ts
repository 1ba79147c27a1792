import t from 'tap';
import { maskKey } from '../../../core/tokens/mask-key.js';

t.test('a 48-character key shows its first 4 and last 4 characters around 10 asterisks', async (t) => {
  const key = 'abcd' + 'x'.repeat(40) + 'wxyz';
  t.equal(maskKey(key), 'abcd**********wxyz');
});

t.test('a key of 8 characters or fewer is hidden entirely', async (t) => {
  t.equal(maskKey('abcdefgh'), '********');
});
