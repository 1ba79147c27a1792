import t from 'tap';
import { toQiRequest } from '../../../../providers/qi/qi-image-operation.js';
import { qiFixture } from './fixtures/read-qi-fixture.js';

t.test('a text-to-image job becomes exactly the recorded qwen-image-plus request', async (t) => {
  const recorded = qiFixture('request_qwen_image_plus');
  const prompt = recorded.input.messages[0].content[0].text as string;
  // Given in another order on purpose: the body lists parameters in DashScope's own order.
  const body = toQiRequest(prompt, [], { size: '1328*1328', watermark: false, prompt_extend: true, negative_prompt: '' }, 'qwen-image-plus');
  t.equal(JSON.stringify(body), JSON.stringify(recorded), 'the same bytes');
});

t.test('input images come first, in the order given, then the instruction as one text item', async (t) => {
  const body = toQiRequest('make it blue', ['https://example.com/a.png', 'data:image/png;base64,AAAA', 'https://example.com/c.webp'], { n: 2, seed: 7 }, 'qwen-image-edit-plus');
  t.strictSame(body, {
    model: 'qwen-image-edit-plus',
    input: {
      messages: [
        {
          role: 'user',
          content: [{ image: 'https://example.com/a.png' }, { image: 'data:image/png;base64,AAAA' }, { image: 'https://example.com/c.webp' }, { text: 'make it blue' }],
        },
      ],
    },
    parameters: { n: 2, seed: 7 },
  });
});

t.test('parameters is sent even when the client set none, and nothing is added to it', async (t) => {
  t.strictSame(toQiRequest('a cat', [], {}, 'qwen-image-plus').parameters, {});
});
