import t from 'tap';
import { fromQiResponse } from '../../../../providers/qi/from-qi-response.js';
import { qiFixture } from './fixtures/read-qi-fixture.js';

t.test('the recorded legacy answer gives its one image URL, billed as one image without token counts', async (t) => {
  const recorded = qiFixture('qwen_image_plus_legacy');
  const result = fromQiResponse(recorded);
  t.strictSame(result.urls, ['https://dashscope-result-sz.oss-cn-shenzhen.aliyuncs.com/xxx.png?Expires=xxx']);
  t.strictSame(result.usage, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, images: 1, source: 'upstream' });
  t.equal(result.clientUsage, undefined, 'width and height are not token counts');
});

t.test('the recorded newer answer gives its image URL and its token counts in the images usage shape', async (t) => {
  const result = fromQiResponse(qiFixture('qwen_image_2_style'));
  t.strictSame(result.urls, ['https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/xxx.png?Expires=xxx']);
  t.strictSame(result.clientUsage, { total_tokens: 0, input_tokens: 0, output_tokens: 0, input_tokens_details: { text_tokens: 0, image_tokens: 0 }, output_tokens_details: { image_tokens: 0, text_tokens: 0 } });
  t.equal(result.usage.images, 1);
});

t.test('every choice’s images count, in order, and only image items are read', async (t) => {
  const recorded = qiFixture('qwen_image_2_style');
  const [choice] = recorded.output.choices;
  recorded.output.choices = ['1', '2', '3'].map((name) => ({ ...choice, message: { ...choice.message, content: [{ image: `https://r/${name}.png`, type: 'image' }] } }));
  recorded.output.choices[1].message.content.push({ text: 'a caption' });
  recorded.usage = { ...recorded.usage, image_count: 3, input_tokens: 12, output_tokens: 30, total_tokens: 42 };
  const result = fromQiResponse(recorded);
  t.strictSame(result.urls, ['https://r/1.png', 'https://r/2.png', 'https://r/3.png']);
  t.match(result.usage, { images: 3, inputTokens: 12, outputTokens: 30, source: 'upstream' });
  t.strictSame(result.clientUsage, {
    total_tokens: 42,
    input_tokens: 12,
    output_tokens: 30,
    input_tokens_details: { text_tokens: 12, image_tokens: 0 },
    output_tokens_details: { image_tokens: 0, text_tokens: 30 },
  });
});

t.test('an answer without any image is a retryable 502 empty_response', async (t) => {
  const recorded = qiFixture('qwen_image_plus_legacy');
  recorded.output.choices = [];
  t.throws(() => fromQiResponse(recorded), { statusCode: 502, code: 'empty_response', retryable: true });
  const noContent = qiFixture('qwen_image_2_style');
  noContent.output.choices[0].message.content = [];
  t.throws(() => fromQiResponse(noContent), { code: 'empty_response' });
});

t.test('an error body sent with HTTP 200 is judged by its code', async (t) => {
  const recorded = qiFixture('error');
  t.throws(() => fromQiResponse(recorded), { statusCode: 400, code: 'upstream_invalid_request', message: 'num_images_per_prompt must be 1 (InvalidParameter)', retryable: false });
  t.throws(() => fromQiResponse({ ...recorded, code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' }), { statusCode: 400, code: 'prompt_blocked' });
  t.throws(() => fromQiResponse({ ...recorded, code: 'Throttling.RateQuota' }), { statusCode: 429, code: 'upstream_rate_limited', retryable: true });
  t.throws(() => fromQiResponse({ ...recorded, code: 'InternalError' }), { statusCode: 502, code: 'upstream_error', retryable: true });
  for (const code of ['ModelNotFound', 'Model.AccessDenied', 'AccessDenied.Unpurchased']) {
    t.throws(() => fromQiResponse({ ...recorded, code, message: 'Model access denied.' }), { statusCode: 404, code: 'model_not_found', retryable: true, fault: 'request' }, `${code} is about the model: tried elsewhere, never the channel's failure`);
  }
  t.throws(() => fromQiResponse({ ...recorded, code: 'AccessDenied', message: 'Access denied.' }), { statusCode: 502, code: 'upstream_auth_failed', fault: 'channel' }, 'a plain AccessDenied is the account’s');
});

t.test('an answer of the wrong shape is a retryable 502', async (t) => {
  t.throws(() => fromQiResponse([1, 2]), { statusCode: 502, code: 'upstream_invalid_response', retryable: true });
  t.throws(() => fromQiResponse({ output: { choices: 'none' } }), { code: 'upstream_invalid_response' });
});
