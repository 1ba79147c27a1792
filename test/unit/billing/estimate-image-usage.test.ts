import t from 'tap';
import { estimateImageUsage, requestedImages } from '../../../core/billing/estimate-image-usage.js';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';

const config = gatewayConfigSchema.parse({});

t.test('a request reserves for as many images as any family field asks for', async (t) => {
  t.equal(requestedImages({ model: 'gx-2.5-flash-image' }), 1);
  t.equal(requestedImages({ model: 'gi-2', n: 3 }), 3);
  t.equal(requestedImages({ model: 'qi-edit-plus', parameters: { n: 6 } }), 6);
  t.equal(requestedImages({ model: 'dsr-4-0-250828', sequential_image_generation: 'auto' }), 4, 'a sequential batch defaults to 4');
  t.equal(requestedImages({ model: 'dsr-4-0-250828', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 2 } }), 2);
  t.equal(requestedImages({ model: 'dsr-4-0-250828', sequential_image_generation: 'disabled', sequential_image_generation_options: { max_images: 2 } }), 1);
  t.equal(requestedImages({ model: 'gi-2', n: 500 }), 10, 'capped at 10');
});

t.test('the estimate is flagged estimated and counts the prompt and per-image output', async (t) => {
  t.strictSame(estimateImageUsage({ model: 'gi-2', n: 2, prompt: 'a red fox' }, config), {
    inputTokens: 3,
    cachedInputTokens: 0,
    outputTokens: 2 * config.billing.estimated_output_tokens,
    reasoningTokens: 0,
    images: 2,
    source: 'estimated',
  });
});
