import t from 'tap';
import { fromOpenAiChatUsage, openAiChatUsageSchema } from '../../../../providers/shared/openai-compatible/openai-usage.js';
import { fixtureText } from './fixtures/read-gp-fixtures.js';

t.test('the recorded non-stream usage becomes the core usage', async (t) => {
  const completion = JSON.parse(fixtureText('openai-chat-completion-nonstream.json')) as { usage: unknown };
  t.strictSame(fromOpenAiChatUsage(openAiChatUsageSchema.parse(completion.usage)), {
    inputTokens: 16,
    cachedInputTokens: 0,
    outputTokens: 363,
    reasoningTokens: 0,
    source: 'upstream',
  });
});

t.test('cached and reasoning tokens are the parts of prompt and completion tokens they already are', async (t) => {
  const usage = openAiChatUsageSchema.parse({
    prompt_tokens: 1200,
    completion_tokens: 500,
    total_tokens: 1700,
    prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 320, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  });
  t.strictSame(fromOpenAiChatUsage(usage), { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 500, reasoningTokens: 320, source: 'upstream' });
});

t.test('missing, null or nonsense counts are zero', async (t) => {
  const usage = openAiChatUsageSchema.parse({ prompt_tokens: 7, completion_tokens: null, prompt_tokens_details: null, completion_tokens_details: { reasoning_tokens: -3 } });
  t.strictSame(fromOpenAiChatUsage(usage), { inputTokens: 7, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'upstream' });
});
