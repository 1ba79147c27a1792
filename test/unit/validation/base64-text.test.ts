import t from 'tap';

import { isBase64Text } from '../../../core/kit/index.js';
t.test('bare base64 is told from other text before anything is decoded', async (t) => {
  t.equal(isBase64Text('iVBORw0KGgo='), true);
  t.equal(isBase64Text('aGVsbG8'), true, 'unpadded base64 decodes whole');
  t.equal(isBase64Text('aGVsbG8gd'), false, 'one character over is not base64');
  t.equal(isBase64Text(''), false);
  t.equal(isBase64Text('https://example.com/a.png'), false);
  t.equal(isBase64Text('aGVs_bG8'), false, 'the URL-safe alphabet is not taken');
});
