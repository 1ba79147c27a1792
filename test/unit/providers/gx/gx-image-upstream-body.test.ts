import t from 'tap';
import type { ImageRequest } from '../../../../core/index.js';
import { readGxImageRequest } from '../../../../providers/gx/images/read-gx-image-request.js';
import { toGxImageRequest } from '../../../../providers/gx/images/gx-image-operation.js';
import { fixtureJson } from './fixtures/read-gx-fixtures.js';

const plan = (fields: Record<string, unknown>) => readGxImageRequest({ model: 'gx-3-pro-image-preview', ...fields } as ImageRequest);
const png = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const jpeg = { mimeType: 'image/jpeg', data: '/9j/4AAQ' };

t.test('text-to-image sends one user turn, IMAGE only, and the 1K tier without a ratio', async (t) => {
  t.strictSame(toGxImageRequest(plan({ prompt: 'a red fox' }), []), {
    contents: [{ role: 'user', parts: [{ text: 'a red fox' }] }],
    generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: '1K' } },
  });
});

t.test('image-text asks for TEXT and IMAGE, as the recorded image request does', async (t) => {
  const recorded = fixtureJson<{ request: { body: { generationConfig: { responseModalities: string[] } } } }>('gemini-stream-image-output.json').request.body;
  const body = toGxImageRequest(plan({ prompt: 'x', response_modalities: 'image-text' }), []);
  t.strictSame([...body.generationConfig.responseModalities].sort(), [...recorded.generationConfig.responseModalities].sort());
  t.strictSame(body.generationConfig.responseModalities, ['TEXT', 'IMAGE']);
});

t.test('size, quality, temperature and top_p land in generationConfig', async (t) => {
  const body = toGxImageRequest(plan({ prompt: 'x', size: '1792x1024', quality: 'hd', temperature: 0.7, top_p: 0.5 }), []);
  t.strictSame(body.generationConfig, {
    responseModalities: ['IMAGE'],
    imageConfig: { aspectRatio: '16:9', imageSize: '2K' },
    temperature: 0.7,
    topP: 0.5,
  });
});

t.test('fields with no upstream counterpart add nothing to the body', async (t) => {
  const body = toGxImageRequest(plan({ prompt: 'x', n: 3, response_format: 'url', mime_type: 'image/jpeg', sample_count: 2, user: 'u' }), []);
  t.strictSame(body, toGxImageRequest(plan({ prompt: 'x' }), []));
});

t.test('fetched reference images replace the image parts in order, before the prompt', async (t) => {
  const body = toGxImageRequest(plan({ prompt: 'blend them', image: ['https://example.com/a.png', 'Zm9v'] }), [png, jpeg]);
  t.strictSame(body.contents, [{ role: 'user', parts: [{ inlineData: png }, { inlineData: jpeg }, { text: 'blend them' }] }]);
});

t.test('every contents item joins the one user turn, parts in order', async (t) => {
  const body = toGxImageRequest(
    plan({ contents: [{ role: 'user', parts: [{ text: 'the hat' }, { image: 'aGF0' }] }, { role: 'user', parts: [{ image: 'Y2F0' }, { text: 'on the cat' }] }] }),
    [png, jpeg],
  );
  t.strictSame(body.contents, [{ role: 'user', parts: [{ text: 'the hat' }, { inlineData: png }, { inlineData: jpeg }, { text: 'on the cat' }] }]);
});

t.test('a missing fetched image is a programming error, not a silent gap', async (t) => {
  t.throws(() => toGxImageRequest(plan({ prompt: 'x', image: 'aGVsbG8=' }), []), /no fetched image for image/);
});
