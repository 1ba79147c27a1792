import { z } from 'zod';
import { openAiErrorDetailSchema } from '../../core/index.js';

// Loose on purpose: the chat format is passed through, so only the fields the gateway reads
// are checked, and everything else travels untouched.

const count = z.number().nullish();

/** The `usage` object of a chat completion or of a stream's last chunk (upstreams.md §2.4). */
export const gpUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count, audio_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count, audio_tokens: count }).nullish(),
});

export type GpUsage = z.output<typeof gpUsageSchema>;

const delta = z.looseObject({
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(z.unknown()).nullish(),
});

/** What the decoder reads of a `chat.completion.chunk`. */
export const gpChunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: delta.nullish(), finish_reason: z.string().nullish() })).nullish(),
  usage: gpUsageSchema.nullish(),
});

/** What the operation reads of a non-stream `chat.completion`. */
export const gpCompletionSchema = z.looseObject({ usage: gpUsageSchema.nullish() });

export type GpChunk = z.output<typeof gpChunkSchema>;

/** The `usage` object of a Responses object (upstreams.md §2.2). */
export const gpResponsesUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
});

export type GpResponsesUsage = z.output<typeof gpResponsesUsageSchema>;

/** What the gateway reads of a Responses object: its id, status, error and usage. */
export const gpResponseObjectSchema = z.looseObject({
  id: z.string().nullish(),
  status: z.string().nullish(),
  error: openAiErrorDetailSchema.nullish(),
  usage: gpResponsesUsageSchema.nullish(),
});

export type GpResponseObject = z.output<typeof gpResponseObjectSchema>;

/** What the decoder reads of a Responses stream event (upstreams.md §2.3). */
export const gpResponsesEventSchema = z.looseObject({
  type: z.string(),
  response: gpResponseObjectSchema.nullish(),
  error: openAiErrorDetailSchema.nullish(),
  // Some servers put the error's fields on the `error` event itself instead of under `error`.
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
});
