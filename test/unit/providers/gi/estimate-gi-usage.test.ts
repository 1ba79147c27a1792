import t from 'tap';
import type { ImageRequest } from '../../../../core/index.js';
import { estimateGiUsage, giOutputTokensPerImage } from '../../../../providers/gi/gi-usage.js';
import { prepareGiRequest } from '../../../../providers/gi/read-gi-request.js';

const request = (fields: Record<string, unknown>) => ({ model: 'gi-2', prompt: 'a lighthouse at dusk', ...fields }) as ImageRequest;

t.test('the reservation covers all n images, the prompt and their expected output tokens', async (t) => {
  t.strictSame(estimateGiUsage(prepareGiRequest(request({ n: 3, size: '1024x1536', quality: 'medium' }), 'generate')), {
    inputTokens: 5,
    cachedInputTokens: 0,
    outputTokens: 3 * 1584,
    reasoningTokens: 0,
    images: 3,
    source: 'estimated',
  });
  t.equal(estimateGiUsage(prepareGiRequest(request({}), 'generate')).images, 1, 'one image by default');
});

t.test('output tokens follow the size: presets from the table, auto at the dearest, free sizes by pixels', async (t) => {
  t.equal(giOutputTokensPerImage('1024x1024', 'high'), 4160);
  t.equal(giOutputTokensPerImage('1536x1024', 'low'), 408);
  t.equal(giOutputTokensPerImage('auto', 'auto'), 6240);
  t.equal(giOutputTokensPerImage('2048x2048', 'high'), 4 * 4160);
});

t.test('a request gi cannot accept is refused before any quota is reserved', async (t) => {
  t.throws(() => prepareGiRequest(request({ n: 11 }), 'generate'), { message: /^n: expected at most 10/ });
  t.throws(() => prepareGiRequest(request({}), 'edit'), { message: /^image: an edit needs the image to edit/ });
});
