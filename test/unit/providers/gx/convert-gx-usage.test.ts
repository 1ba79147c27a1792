import t from 'tap';
import { convertGxUsage } from '../../../../providers/gx/convert-gx-usage.js';
import type { GxUsageMetadata } from '../../../../providers/gx/gx-schemas.js';
import { toChatCompletionUsage } from '../../../../providers/gx/chat/from-gx-response.js';
import { fixtureJson, recordedChunks, sseFixtureChunks } from './fixtures/read-gx-fixtures.js';

const usageOf = (chunk: Record<string, unknown> | undefined): GxUsageMetadata => chunk?.usageMetadata as GxUsageMetadata;

t.test('completion counts candidates plus thoughts, and the chat total equals the upstream total', async (t) => {
  const metadata = usageOf(sseFixtureChunks('gemini-stream-multi-chunk.sse').at(-1));
  const usage = convertGxUsage(metadata);
  t.strictSame(usage, {
    inputTokens: 4,
    cachedInputTokens: 0,
    outputTokens: 5947 + 2042,
    reasoningTokens: 2042,
    outputModalities: { text: 5947, audio: 0, image: 0 },
    inputModalities: { text: 4, audio: 0, image: 0, video: 0 },
    source: 'upstream',
  });
  t.equal(toChatCompletionUsage(usage).total_tokens, metadata.totalTokenCount);
});

t.test('a thinking answer without candidate tokens reports its thoughts as completion', async (t) => {
  const metadata = fixtureJson<{ response: { body: { usageMetadata: GxUsageMetadata } } }>('gemini-generate-thought-part.json').response.body.usageMetadata;
  t.strictSame(toChatCompletionUsage(convertGxUsage(metadata)), {
    prompt_tokens: 17,
    completion_tokens: 19,
    total_tokens: 36,
    prompt_tokens_details: { cached_tokens: 0, text_tokens: 17, audio_tokens: 0, image_tokens: 0 },
    completion_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0, reasoning_tokens: 19 },
  });
});

t.test('image output counts as image tokens, the unassigned rest as text', async (t) => {
  const metadata = usageOf(recordedChunks('gemini-stream-image-output.json').at(-1));
  const usage = convertGxUsage(metadata, { images: 1, audio: false });
  t.strictSame(usage.outputModalities, { text: 28, audio: 0, image: 1290 });
  t.equal(usage.outputTokens, 1318);
  t.equal(usage.images, 1);
});

t.test('without a breakdown, output goes to the modality produced', async (t) => {
  const metadata = { promptTokenCount: 10, candidatesTokenCount: 100, totalTokenCount: 110 };
  t.strictSame(convertGxUsage(metadata).outputModalities, { text: 100, audio: 0, image: 0 });
  t.strictSame(convertGxUsage(metadata, { images: 0, audio: false }).outputModalities, { text: 100, audio: 0, image: 0 });
  t.strictSame(convertGxUsage(metadata, { images: 2, audio: false }).outputModalities, { text: 0, audio: 0, image: 100 });
  t.strictSame(convertGxUsage(metadata, { images: 0, audio: true }).outputModalities, { text: 0, audio: 100, image: 0 });
});

t.test('tool-use prompt tokens count as prompt, cached tokens are reported, modality names in any case', async (t) => {
  const usage = convertGxUsage({
    promptTokenCount: 100,
    toolUsePromptTokenCount: 40,
    cachedContentTokenCount: 60,
    candidatesTokenCount: 10,
    totalTokenCount: 150,
    promptTokensDetails: [
      { modality: 'text', tokenCount: 80 },
      { modality: 'Image', tokenCount: 15 },
      { modality: 'AUDIO', tokenCount: 5 },
    ],
    toolUsePromptTokensDetails: [{ modality: 'TEXT', tokenCount: 40 }],
    candidatesTokensDetails: [{ modality: 'text', tokenCount: 10 }],
  });
  t.strictSame(toChatCompletionUsage(usage), {
    prompt_tokens: 140,
    completion_tokens: 10,
    total_tokens: 150,
    prompt_tokens_details: { cached_tokens: 60, text_tokens: 120, audio_tokens: 5, image_tokens: 15 },
    completion_tokens_details: { text_tokens: 10, audio_tokens: 0, image_tokens: 0, reasoning_tokens: 0 },
  });
});

t.test('completion falls back to total minus prompt when the upstream counted neither candidates nor thoughts', async (t) => {
  t.equal(convertGxUsage({ promptTokenCount: 10, totalTokenCount: 25 }).outputTokens, 15);
  t.equal(convertGxUsage({ promptTokenCount: 10, totalTokenCount: 10 }).outputTokens, 0);
});

t.test('the first image-stream chunk, before any breakdown, still has a consistent usage', async (t) => {
  const usage = convertGxUsage(usageOf(recordedChunks('gemini-stream-image-output.json')[0]));
  t.strictSame([usage.inputTokens, usage.outputTokens, usage.outputModalities], [15, 1, { text: 1, audio: 0, image: 0 }]);
});
