import t from 'tap';
import { containsSecret, redactSecrets } from '../../../core/logging/create-logger.js';

t.test('key-shaped strings are masked in free text: gateway keys and login tokens, and vendor keys as channel keys look', async (t) => {
  const shapes = [
    'sk-0123456789abcdefABCDEF0123456789abcdefABCDEF01',
    'mgu_0123456789abcdefABCDEF',
    'sk-proj-Ab12_cd34-EF56gh78ij90',
    'sk-ant-api03-Zy98xw76vu54ts32',
    'AIzaSyD-0123456789abcdefghijklmnopqrs',
  ];
  for (const shape of shapes) {
    t.equal(redactSecrets(`the key ${shape} failed`), 'the key [redacted] failed', shape.slice(0, 8));
    t.equal(containsSecret(shape), true);
  }
  t.equal(redactSecrets('GET /v1beta/models/x:generateContent?key=abc&alt=sse'), 'GET /v1beta/models/x:generateContent?key=[redacted]&alt=sse', 'a key= query value');
  t.equal(
    redactSecrets('fetching https://up.example/v1?key=abc123 failed: quota exceeded for ?key= and &api_key=xyz'),
    'fetching https://up.example/v1?key=[redacted] failed: quota exceeded for ?key= and &api_key=[redacted]',
    'a key= value ends where the URL does: the rest of the message is kept, and a bare ?key= names no value',
  );
  t.equal(containsSecret('req-42.a:b'), false, 'a plain request id is not a secret');
  t.equal(containsSecret('task-sk-1'), false, 'nor a word that merely contains sk-');
});
