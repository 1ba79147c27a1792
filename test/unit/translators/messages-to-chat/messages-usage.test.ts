import type { MessagesRequest } from '../../../../core/index.js';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { type Usage } from '../../../../core/index.js';
import { fromOpenAiChatUsage } from '../../../../providers/shared/openai-compatible/openai-usage.js';
import translator from '../../../../translators/messages-to-chat/index.js';
import { toMessagesUsage } from '../../../../translators/messages-to-chat/messages-answer-parts.js';
import { context } from './fixtures/messages-fixtures.js';

// The translator answers the same whatever the client asked; a request as Claude Code's plain prompt is enough.
const clientRequest: MessagesRequest = { model: 'gx-2.5-pro', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }] };

// Usage exactness: the Messages usage is written from the usage the gateway bills, field for
// field, and the billed usage is never changed by the translation.

const recordedCompletion = JSON.parse(readFileSync(new URL('../../../fixtures/gp/openai-chat-completion-nonstream.json', import.meta.url), 'utf8'));
const billed = (): Usage =>
  Object.freeze({
    inputTokens: 1200,
    cachedInputTokens: 1000,
    outputTokens: 300,
    reasoningTokens: 120,
    inputModalities: Object.freeze({ text: 1100, image: 100 }),
    outputModalities: Object.freeze({ text: 300 }),
    source: 'upstream' as const,
  });

t.test("every token count of the billed usage lands in Anthropic's fields, cache reads apart from input_tokens", async (t) => {
  const usage = toMessagesUsage(billed());
  t.strictSame(usage, {
    input_tokens: 200,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 1000,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: 300,
    output_tokens_details: { thinking_tokens: 120 },
    service_tier: 'standard',
  });
  t.equal(usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens, billed().inputTokens, "Anthropic's three input counts add up to the billed prompt");
});

t.test('the JSON answer and the closing stream event carry the same usage, from the billed usage', async (t) => {
  const usage = billed();
  const answer = translator.answer(recordedCompletion, usage, 'chat', context(), clientRequest) as { usage: unknown };
  t.strictSame(answer.usage, toMessagesUsage(usage));

  const stream = translator.stream!('chat', context({ stream: true }), clientRequest);
  const passed = stream.push({ type: 'usage', usage });
  t.strictSame(passed, [{ type: 'usage', usage }], 'the usage output goes on as it came, for billing');
  t.equal((passed[0] as { usage: Usage }).usage, usage, 'the same object');
  const closing = stream.end().flatMap((output) => (output.type === 'event' && output.event === 'message_delta' ? [JSON.parse(output.data)] : []));
  t.strictSame(closing.map((event) => event.usage), [toMessagesUsage(usage)]);
});

t.test('a recorded OpenAI usage converts exactly as the gp provider bills it', async (t) => {
  const recorded = recordedCompletion.usage;
  const usage = fromOpenAiChatUsage(recorded);
  const answer = translator.answer(recordedCompletion, usage, 'chat', context(), clientRequest) as { usage: ReturnType<typeof toMessagesUsage> };
  t.equal(answer.usage.input_tokens + answer.usage.cache_read_input_tokens, recorded.prompt_tokens);
  t.equal(answer.usage.cache_read_input_tokens, recorded.prompt_tokens_details.cached_tokens);
  t.equal(answer.usage.output_tokens, recorded.completion_tokens);
  t.equal(answer.usage.output_tokens_details.thinking_tokens, recorded.completion_tokens_details.reasoning_tokens);
});

t.test('input_tokens is never negative, even if an upstream reports more cached tokens than prompt tokens', async (t) => {
  t.equal(toMessagesUsage({ ...billed(), inputTokens: 10, cachedInputTokens: 12 }).input_tokens, 0);
});
