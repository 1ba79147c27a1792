import t from 'tap';
import { estimateMessagesInputTokens, estimateMessagesUsage } from '../../../core/billing/estimate-messages-usage.js';
import { maxPdfTokens, tokensPerImage } from '../../../core/billing/inline-media-tokens.js';

const messages = [{ role: 'user' as const, content: 'What is the weather in Oslo?' }];
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

t.test('a Messages prompt is a quarter of the bytes of its system, tools and messages, rounded up', async (t) => {
  const system = 'You help with the weather.';
  const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
  t.equal(estimateMessagesInputTokens({ messages }), Math.ceil(bytes(messages) / 4));
  t.equal(estimateMessagesInputTokens({ system, tools, messages }), Math.ceil((bytes(messages) + bytes(system) + bytes(tools)) / 4));
});

t.test('images and PDFs count by rule, in messages and in tool results alike', async (t) => {
  const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'A'.repeat(400_000) } };
  const pdf = { type: 'document' as const, source: { type: 'base64' as const, media_type: 'application/pdf' as const, data: 'A'.repeat(8_000_000) } };
  const text = { type: 'text' as const, text: 'look' };
  const plain = estimateMessagesInputTokens({ messages: [{ role: 'user', content: [text] }] });
  t.ok(estimateMessagesInputTokens({ messages: [{ role: 'user', content: [text, image] }] }) - plain <= tokensPerImage + 20, 'an image near its rule');
  t.ok(estimateMessagesInputTokens({ messages: [{ role: 'user', content: [text, image] }] }) - plain >= tokensPerImage, 'and not less');
  const inResult = estimateMessagesInputTokens({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [text, image] }] }] });
  t.ok(inResult < 2 * tokensPerImage, `a tool result's image counts by rule too (${inResult})`);
  t.ok(estimateMessagesInputTokens({ messages: [{ role: 'user', content: [pdf] }] }) <= maxPdfTokens + 50, 'a PDF at most its cap');
});

t.test('the quota estimate reserves max_tokens of output, marked estimated', async (t) => {
  t.strictSame(estimateMessagesUsage({ messages, max_tokens: 512 }), {
    inputTokens: estimateMessagesInputTokens({ messages }),
    cachedInputTokens: 0,
    outputTokens: 512,
    reasoningTokens: 0,
    source: 'estimated',
  });
});
