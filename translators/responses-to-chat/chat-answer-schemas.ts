import { z } from 'zod';

// Lenient on purpose: these read what a chat provider answered (spec part 1, "Chat
// completion object"; upstreams.md §2.4), which is an upstream's text on an OpenAI-format
// family. Only the fields the translation reads are checked; `null` stands for absent
// wherever a family writes one (fixture deepseek-tool-call.chunks.txt: `content: null`).

const logprobEntry = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number()).nullish(),
  top_logprobs: z.array(z.looseObject({ token: z.string(), logprob: z.number(), bytes: z.array(z.number()).nullish() })).nullish(),
});

/** `choices[].logprobs` of a completion or a chunk. */
const logprobs = z.looseObject({ content: z.array(logprobEntry).nullish() }).nullish();

const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** What the translation reads of a `chat.completion`. */
export const chatCompletionSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCall).nullish(),
        }),
        logprobs,
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

/** What the translation reads of a `chat.completion.chunk`. */
export const chatChunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(toolCall.extend({ index: z.number().nullish() })).nullish(),
          })
          .nullish(),
        logprobs,
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
});

/** A chat choice's `logprobs`, as read. */
export type ChatLogprobs = z.output<typeof logprobs>;
/** One chunk, as read. */
export type ChatChunk = z.output<typeof chatChunkSchema>;
