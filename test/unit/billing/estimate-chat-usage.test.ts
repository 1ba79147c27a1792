import t from 'tap';
import { estimateChatUsage } from '../../../core/billing/estimate-chat-usage.js';

const billing = { billing: { allow_free_models: false, estimated_output_tokens: 4096 } };

t.test('input tokens are a quarter of the UTF-8 bytes of the serialized messages, rounded up', async (t) => {
  const messages = [{ role: 'user', content: 'hello' }];
  const bytes = Buffer.byteLength(JSON.stringify(messages));
  const usage = estimateChatUsage({ model: 'gx-2.5-pro', messages }, billing);
  t.equal(bytes, 35);
  t.equal(usage.inputTokens, 9);
  t.equal(usage.cachedInputTokens, 0);
  t.equal(usage.reasoningTokens, 0);
  t.equal(usage.source, 'estimated');
});

t.test('multi-byte characters count by their UTF-8 bytes', async (t) => {
  // "日本" is 6 bytes in UTF-8: [{"content":"日本"}] is 22 bytes.
  t.equal(estimateChatUsage({ messages: [{ content: '日本' }] }, billing).inputTokens, 6);
});

t.test('native requests are estimated from their contents and system instruction', async (t) => {
  const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
  const systemInstruction = { parts: [{ text: 'be brief' }] };
  const withoutSystem = Buffer.byteLength(JSON.stringify({ contents }));
  const withSystem = Buffer.byteLength(JSON.stringify({ systemInstruction, contents }));
  t.equal(estimateChatUsage({ contents }, billing).inputTokens, Math.ceil(withoutSystem / 4));
  t.equal(estimateChatUsage({ contents, systemInstruction }, billing).inputTokens, Math.ceil(withSystem / 4));
});

t.test('output tokens are the limit the client set, under any of its names', async (t) => {
  const messages = [{ role: 'user', content: 'hi' }];
  t.equal(estimateChatUsage({ messages, max_tokens: 300 }, billing).outputTokens, 300);
  t.equal(estimateChatUsage({ messages, max_completion_tokens: 200 }, billing).outputTokens, 200);
  t.equal(estimateChatUsage({ messages, max_tokens: 300, max_completion_tokens: 200 }, billing).outputTokens, 200);
  t.equal(estimateChatUsage({ contents: [], generationConfig: { maxOutputTokens: 64 } }, billing).outputTokens, 64);
});

t.test('without a limit the configured estimate of output tokens applies', async (t) => {
  t.equal(estimateChatUsage({ messages: [], max_tokens: null }, billing).outputTokens, 4096);
  t.equal(estimateChatUsage({ contents: [], generationConfig: {} }, { billing: { ...billing.billing, estimated_output_tokens: 10 } }).outputTokens, 10);
});

t.test('an explicit output count overrides the request and the config (embeddings produce none)', async (t) => {
  t.equal(estimateChatUsage({ contents: [{ parts: [{ text: 'embed me' }] }], max_tokens: 50 }, billing, 0).outputTokens, 0);
});
