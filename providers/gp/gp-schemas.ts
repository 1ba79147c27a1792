import { z } from 'zod';
import { openAiChatUsageSchema, openAiErrorDetailSchema, openAiTokenUsageSchema } from '../../core/index.js';

// Loose on purpose: the chat format is passed through, so only the fields the gateway reads
// are checked, and everything else travels untouched.

const delta = z.looseObject({
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(z.unknown()).nullish(),
});

/** What the decoder reads of a `chat.completion.chunk`. */
export const gpChunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: delta.nullish(), finish_reason: z.string().nullish() })).nullish(),
  usage: openAiChatUsageSchema.nullish(),
});

/** What the operation reads of a non-stream `chat.completion`. */
export const gpCompletionSchema = z.looseObject({ usage: openAiChatUsageSchema.nullish() });

export type GpChunk = z.output<typeof gpChunkSchema>;

/** What the gateway reads of a Responses object: its id, status, error and usage. */
export const gpResponseObjectSchema = z.looseObject({
  id: z.string().nullish(),
  status: z.string().nullish(),
  error: openAiErrorDetailSchema.nullish(),
  usage: openAiTokenUsageSchema.nullish(),
});

/** What the decoder reads of a Responses stream event (upstreams.md §2.3). */
export const gpResponsesEventSchema = z.looseObject({
  type: z.string(),
  response: gpResponseObjectSchema.nullish(),
  error: openAiErrorDetailSchema.nullish(),
  // Some servers put the error's fields on the `error` event itself instead of under `error`.
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
});
