import t from 'tap';
import { findUrlFields } from '../../../core/http/find-url-fields.js';

t.test('findUrlFields lists whole-string http(s) URLs under the named keys with their paths', async (t) => {
  const body = {
    prompt: 'https://10.0.0.1/ is a prompt, not a URL field',
    image: 'https://a.example/1.png',
    metadata: {
      content: [
        { type: 'image_url', image_url: { url: 'http://b.example/2.png' } },
        { type: 'video_url', video_url: { url: 'asset://asset-1' } },
        { type: 'image_url', image_url: 'HTTPS://c.example/3.png' },
        { type: 'text', text: 'https://d.example/not-a-field' },
      ],
    },
  };
  t.strictSame(
    findUrlFields(body, (key) => ['image', 'image_url', 'video_url'].includes(key)).sort((a, b) => a.field.localeCompare(b.field)),
    [
      { url: 'https://a.example/1.png', field: 'image' },
      { url: 'http://b.example/2.png', field: 'metadata.content[0].image_url.url' },
      { url: 'HTTPS://c.example/3.png', field: 'metadata.content[2].image_url' },
    ],
  );
  t.strictSame(findUrlFields({ fileUri: 'https://e.example/' }, (key) => key === 'fileUri', 'extra_body.gx'), [{ url: 'https://e.example/', field: 'extra_body.gx.fileUri' }]);
});

t.test('findUrlFields walks a body nested 100,000 levels deep without overflowing, and skips uploaded bytes', async (t) => {
  let deep: Record<string, unknown> = { fileUri: 'https://deep.example/x' };
  for (let level = 0; level < 100_000; level++) deep = { parts: [deep] };
  const found = findUrlFields(deep, (key) => key === 'fileUri');
  t.equal(found.length, 1);
  t.equal(found[0]?.url, 'https://deep.example/x');
  const uploads = [{ field: 'image', data: Buffer.alloc(1_000_000) }];
  t.strictSame(findUrlFields({ uploads, image: 'https://a.example/' }, (key) => key === 'image'), [{ url: 'https://a.example/', field: 'image' }]);
});

t.test('findUrlFields lists an http(s) URL however its slashes are written, since URL parsers read them all as one host', async (t) => {
  const written = ['http:/127.0.0.1', 'http:127.0.0.1/a.png', 'https:\\\\10.0.0.1\\a.png', ' HTTP:/169.254.169.254/'];
  const found = findUrlFields(Object.fromEntries(written.map((url, index) => [`url${index}`, url])), (key) => key.startsWith('url')).map((entry) => entry.url);
  t.strictSame(found.sort(), [...written].sort());
});
