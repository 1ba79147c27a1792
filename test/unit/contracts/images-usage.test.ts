import t from 'tap';
import { emptyUsage, toImagesUsage, type Usage } from '../../../core/index.js';

t.test('images usage details add up: in each direction, text is whatever is not image', async (t) => {
  const usage: Usage = { ...emptyUsage(), inputTokens: 40, outputTokens: 1300, inputModalities: { text: 10, image: 30 }, outputModalities: { image: 1290, text: 4 } };
  t.strictSame(toImagesUsage(usage), {
    total_tokens: 1340,
    input_tokens: 40,
    output_tokens: 1300,
    input_tokens_details: { text_tokens: 10, image_tokens: 30 },
    output_tokens_details: { image_tokens: 1290, text_tokens: 10 },
  });
});

t.test('tokens an upstream reports without a split count as text, and image tokens never exceed their total', async (t) => {
  t.strictSame(toImagesUsage({ ...emptyUsage(), inputTokens: 11, outputTokens: 1024 }), {
    total_tokens: 1035,
    input_tokens: 11,
    output_tokens: 1024,
    input_tokens_details: { text_tokens: 11, image_tokens: 0 },
    output_tokens_details: { image_tokens: 0, text_tokens: 1024 },
  });
  t.strictSame(toImagesUsage({ ...emptyUsage(), outputTokens: 10, outputModalities: { image: 50 } }).output_tokens_details, { image_tokens: 10, text_tokens: 0 });
});
