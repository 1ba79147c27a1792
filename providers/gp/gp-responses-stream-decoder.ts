import { z } from 'zod';
import { upstreamStreamTruncated, type SseFrame, type StreamDecoder, type StreamOutput } from '../../core/index.js';
import { invalidUpstreamAnswer, readJsonFrame, stopAfterFirstError, streamFailure as fail } from '../../core/kit/index.js';
import { fromOpenAiTokenUsage, openAiTokenUsageSchema } from '../shared/openai-compatible/openai-usage.js';
import { openAiErrorDetailSchema, openAiErrorToGatewayError } from '../shared/openai-compatible/openai-compatible.js';

/** What the gateway reads of a Responses object, streamed or not: its id, status, error and usage. */
export const gpResponseObjectSchema = z.looseObject({
  id: z.string().nullish(),
  status: z.string().nullish(),
  error: openAiErrorDetailSchema.nullish(),
  usage: openAiTokenUsageSchema.nullish(),
});

/** What the decoder reads of a Responses stream event (upstreams.md §2.3). */
const gpResponsesEventSchema = z.looseObject({
  type: z.string(),
  response: gpResponseObjectSchema.nullish(),
  error: openAiErrorDetailSchema.nullish(),
  // Some servers put the error's fields on the `error` event itself instead of under `error`.
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
});

/** Events that only announce the response; everything after them is model output and commits the stream. */
const lifecycleEvents = new Set(['response.created', 'response.in_progress', 'response.queued']);

/** Events that end a Responses stream (upstreams.md §2.3); OpenAI sends no `[DONE]` after them. */
const terminalEvents = new Set(['response.completed', 'response.incomplete']);

const deltaField = '"delta":"';

/**
 * The characters of a delta event's `"delta"` string, read off its JSON text without parsing
 * it (escapes count as one character each); 0 when the event has no string delta. An
 * estimate's input, for a stream that ends without usage.
 */
function deltaCharacters(data: string): number {
  const start = data.indexOf(deltaField);
  if (start === -1) return 0;
  let characters = 0;
  for (let index = start + deltaField.length; index < data.length; index += 1) {
    const character = data.charCodeAt(index);
    if (character === 0x22) return characters;
    if (character === 0x5c) index += data.charCodeAt(index + 1) === 0x75 ? 5 : 1;
    characters += 1;
  }
  return characters;
}

/**
 * Passes a Responses stream (upstreams.md §2.3) through: every event goes out as `event:
 * <type>` plus its data text exactly as received, `sequence_number` and all. Deltas, which
 * are most of a stream, are passed on by their `event:` line without parsing their JSON.
 * `response.created` reports the response id as the channel's affinity key;
 * `response.completed` (or `.incomplete`) reports usage and ends the stream. An `error` or
 * `response.failed` event becomes an `error` output, so before any content the core fails
 * over (fixture openai-responses-stream-error.sse: `insufficient_quota` arrives that way
 * with HTTP 200); the decoder then stays silent. A stream that stops before a terminal
 * event broke off.
 */
export function createGpResponsesStreamDecoder(): StreamDecoder {
  let finished = false;

  return stopAfterFirstError({
    push(frame: SseFrame): StreamOutput[] {
      const data = frame.data.trim();
      if (data === '' || data === '[DONE]') return [];
      if (frame.event?.endsWith('.delta')) {
        return [{ type: 'event', event: frame.event, data: frame.data, content: true, outputCharacters: deltaCharacters(data) }];
      }

      const read = readJsonFrame(frame, 'a Responses event', () => undefined);
      if (read.kind !== 'json') return read.kind === 'error' ? fail(read.error) : [];
      const parsed = gpResponsesEventSchema.safeParse(read.json);
      if (!parsed.success) return fail(invalidUpstreamAnswer('a Responses event', { cause: parsed.error }));
      const event = parsed.data;
      if (event.type === 'error') {
        return fail(openAiErrorToGatewayError(event.error ?? { code: event.code, message: event.message }));
      }
      if (event.type === 'response.failed') {
        return fail(openAiErrorToGatewayError(event.response?.error ?? { message: 'the upstream reported the response as failed' }));
      }

      // Only deltas count as output: `.done` and `output_item` events repeat what the deltas carried.
      const outputs: StreamOutput[] = [{ type: 'event', event: event.type, data: frame.data, content: !lifecycleEvents.has(event.type), outputCharacters: 0 }];
      const response = event.response;
      if (event.type === 'response.created' && typeof response?.id === 'string' && response.id !== '') outputs.push({ type: 'affinity', key: response.id });
      if (terminalEvents.has(event.type)) {
        finished = true;
        if (response?.usage !== undefined && response.usage !== null) outputs.push({ type: 'usage', usage: fromOpenAiTokenUsage(response.usage) });
      }
      return outputs;
    },

    end(): StreamOutput[] {
      return finished ? [] : fail(upstreamStreamTruncated());
    },
  });
}
