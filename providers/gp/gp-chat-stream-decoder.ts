import { z } from 'zod';
import { upstreamStreamTruncated, type SseFrame, type StreamDecoder, type StreamOutput } from '../../core/index.js';
import {
  absent,
  invalidUpstreamAnswer,
  isRecord,
  numberOrAbsent,
  readJsonFrame,
  readWithHandCheck,
  stopAfterFirstError,
  streamFailure as fail,
  stringOrAbsent,
} from '../../core/kit/index.js';
import { fromOpenAiChatUsage, openAiChatUsageSchema } from '../shared/openai-compatible/openai-usage.js';
import { openAiInBandError } from '../shared/openai-compatible/openai-compatible.js';

// Loose on purpose: the chat format is passed through, so only the fields the gateway reads
// are checked, and everything else travels untouched.
const delta = z.looseObject({
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(z.unknown()).nullish(),
});

/** What the decoder reads of a `chat.completion.chunk`. */
const gpChunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: delta.nullish(), finish_reason: z.string().nullish() })).nullish(),
  usage: openAiChatUsageSchema.nullish(),
});

type GpChunk = z.output<typeof gpChunkSchema>;

// A chunk of plain choices and counts, which is every chunk of an ordinary stream, is checked
// by hand, accepting only what the schema accepts; anything unusual goes through the schema
// (see `readWithHandCheck`).

const countsOrAbsent = (value: unknown, ...names: string[]): boolean => absent(value) || (isRecord(value) && names.every((name) => numberOrAbsent(value[name])));

function plainUsage(usage: unknown): boolean {
  if (absent(usage)) return true;
  return (
    isRecord(usage) &&
    countsOrAbsent(usage, 'prompt_tokens', 'completion_tokens', 'total_tokens') &&
    countsOrAbsent(usage.prompt_tokens_details, 'cached_tokens', 'audio_tokens') &&
    countsOrAbsent(usage.completion_tokens_details, 'reasoning_tokens', 'audio_tokens')
  );
}

function plainChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !stringOrAbsent(choice.finish_reason)) return false;
  const delta = choice.delta;
  if (absent(delta)) return true;
  return (
    isRecord(delta) &&
    stringOrAbsent(delta.content) &&
    stringOrAbsent(delta.refusal) &&
    stringOrAbsent(delta.reasoning_content) &&
    (absent(delta.tool_calls) || Array.isArray(delta.tool_calls))
  );
}

/** True for a chunk whose choices and usage are each of a shape the schema accepts. */
function plainChunk(json: unknown): json is GpChunk {
  return isRecord(json) && plainUsage(json.usage) && (absent(json.choices) || (Array.isArray(json.choices) && json.choices.every(plainChoice)));
}

const lengthOf = (value: unknown): number => (typeof value === 'string' ? value.length : 0);

/**
 * A chunk's model output: its characters (text, refusal, reasoning, and each tool call's name
 * and arguments, read with care as the schema leaves tool calls unchecked), and whether it has
 * any text or tool call, which commits the stream to this channel.
 */
function outputOf(chunk: GpChunk): { content: boolean; outputCharacters: number } {
  let characters = 0;
  let toolCalls = false;
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    characters += lengthOf(delta?.content) + lengthOf(delta?.refusal) + lengthOf(delta?.reasoning_content);
    for (const call of delta?.tool_calls ?? []) {
      toolCalls = true;
      const fn = isRecord(call) ? call.function : undefined;
      if (isRecord(fn)) characters += lengthOf(fn.name) + lengthOf(fn.arguments);
    }
  }
  return { content: toolCalls || characters > 0, outputCharacters: characters };
}

/**
 * Passes an upstream `chat.completion.chunk` stream (upstreams.md §2.4) through: every
 * chunk goes out with its data text exactly as received, and `[DONE]` closes the stream.
 * A chunk with a `usage` object is reported as usage; the final usage chunk (`choices: []`)
 * is dropped unless the client asked for it: `includeUsage` is the client's
 * `stream_options.include_usage`, while the upstream is always asked for usage, for billing.
 * A `content_filter` finish is reported as a `content_filter` output beside its chunk.
 * An `{"error": ...}` frame, or a frame that is not JSON, becomes an `error` output and the
 * decoder then stays silent; a stream that ends without `[DONE]` and without any finish
 * reason broke off and is an error too.
 */
export function createGpChatStreamDecoder(options: { includeUsage: boolean }): StreamDecoder {
  let finished = false;

  return stopAfterFirstError({
    push(frame: SseFrame): StreamOutput[] {
      const read = readJsonFrame(frame, 'a chat completion', openAiInBandError);
      if (read.kind === 'blank') return [];
      if (read.kind === 'done') {
        finished = true;
        return [];
      }
      if (read.kind === 'error') return fail(read.error);
      const parsed = readWithHandCheck(read.json, plainChunk, gpChunkSchema);
      if (!parsed.success) return fail(invalidUpstreamAnswer('a chat completion', { cause: parsed.error }));
      const chunk = parsed.data;

      const outputs: StreamOutput[] = [];
      let filtered = false;
      for (const choice of chunk.choices ?? []) {
        if ((choice.finish_reason ?? '') === '') continue;
        finished = true;
        if (choice.finish_reason === 'content_filter') filtered = true;
      }
      const usageChunk = chunk.usage !== undefined && chunk.usage !== null;
      const usageOnly = usageChunk && (chunk.choices ?? []).length === 0;
      if (!usageOnly || options.includeUsage) outputs.push({ type: 'event', data: frame.data, ...outputOf(chunk) });
      // The core judges whether it came before any content (a refusal, `fallbacks_on`).
      if (filtered) outputs.push({ type: 'content_filter' });
      if (usageChunk) outputs.push({ type: 'usage', usage: fromOpenAiChatUsage(chunk.usage!) });
      return outputs;
    },

    end(): StreamOutput[] {
      return finished ? [{ type: 'event', data: '[DONE]', content: false }] : fail(upstreamStreamTruncated());
    },
  });
}
