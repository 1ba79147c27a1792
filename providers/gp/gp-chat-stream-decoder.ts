import { fromOpenAiChatUsage, invalidUpstreamAnswer, openAiInBandError, readJsonFrame, stopAfterFirstError, streamFailure as fail, upstreamStreamTruncated, type SseFrame, type StreamDecoder, type StreamOutput } from '../../core/index.js';
import type { GpChunk } from './gp-schemas.js';
import { readGpChunk } from './read-gp-chunk.js';

/** What the decoder needs besides the upstream frames. */
export interface GpChatStreamOptions {
  /**
   * The client's `stream_options.include_usage`. The upstream is always asked for usage;
   * when the client did not ask, the usage chunk is billed but not passed on.
   */
  includeUsage: boolean;
}

const done: StreamOutput = { type: 'event', data: '[DONE]', content: false };

const hasText = (value: string | null | undefined): boolean => typeof value === 'string' && value !== '';

const lengthOf = (value: unknown): number => (typeof value === 'string' ? value.length : 0);

/** A tool-call delta's name and argument characters; the schema leaves tool calls unchecked, so each is read with care. */
function toolCallCharacters(call: unknown): number {
  const fn = typeof call === 'object' && call !== null ? (call as { function?: unknown }).function : undefined;
  if (typeof fn !== 'object' || fn === null) return 0;
  return lengthOf((fn as { name?: unknown }).name) + lengthOf((fn as { arguments?: unknown }).arguments);
}

/** Characters of model output in a chunk: text, refusal, reasoning and tool-call arguments. */
function outputCharactersOf(chunk: GpChunk): number {
  let characters = 0;
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    characters += lengthOf(delta?.content) + lengthOf(delta?.refusal) + lengthOf(delta?.reasoning_content);
    for (const call of delta?.tool_calls ?? []) characters += toolCallCharacters(call);
  }
  return characters;
}

/** Whether a chunk carries model output, which commits the stream to this channel. */
function carriesContent(chunk: GpChunk): boolean {
  return (chunk.choices ?? []).some(
    (choice) =>
      hasText(choice.delta?.content) ||
      hasText(choice.delta?.refusal) ||
      hasText(choice.delta?.reasoning_content) ||
      (choice.delta?.tool_calls?.length ?? 0) > 0,
  );
}

/**
 * Passes an upstream `chat.completion.chunk` stream (upstreams.md §2.4) through: every
 * chunk goes out with its data text exactly as received, and `[DONE]` closes the stream.
 * A chunk with a `usage` object is reported as usage; the final usage chunk (`choices: []`)
 * is dropped unless the client asked for it. An `{"error": ...}` frame, or a frame that is
 * not JSON, becomes an `error` output and the decoder then stays silent; a stream that ends
 * without `[DONE]` and without any finish reason broke off and is an error too.
 */
export function createGpChatStreamDecoder(options: GpChatStreamOptions): StreamDecoder {
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
      const parsed = readGpChunk(read.json);
      if (!parsed.success) return fail(invalidUpstreamAnswer('a chat completion', { cause: parsed.error }));
      const chunk = parsed.data;

      const outputs: StreamOutput[] = [];
      if ((chunk.choices ?? []).some((choice) => hasText(choice.finish_reason))) finished = true;
      const usageChunk = chunk.usage !== undefined && chunk.usage !== null;
      const usageOnly = usageChunk && (chunk.choices ?? []).length === 0;
      if (!usageOnly || options.includeUsage) outputs.push({ type: 'event', data: frame.data, content: carriesContent(chunk), outputCharacters: outputCharactersOf(chunk) });
      if (usageChunk) outputs.push({ type: 'usage', usage: fromOpenAiChatUsage(chunk.usage!) });
      return outputs;
    },

    end(): StreamOutput[] {
      if (!finished) return fail(upstreamStreamTruncated());
      return [done];
    },
  });
}
