import { z } from 'zod';

// The one reading of a served chat answer for every translator that serves its client over
// chat. Lenient on purpose: the body is a chat provider's answer (gx builds it, gp and the
// other OpenAI-format families pass the upstream's through; spec part 1, "Chat completion
// object"; upstreams.md §2.4), so only the fields a translation is made of are checked, and
// `null` stands for absent wherever a family writes one (fixture
// test/fixtures/responses-to-chat/deepseek-chat-tool-call.chunks.txt: `content: null`).
// `usage` is not read: every translator writes usage from what the gateway bills.

const tokenLogprob = z.looseObject({ token: z.string(), logprob: z.number(), bytes: z.array(z.number()).nullish() });

/** `choices[].logprobs` of a completion or a chunk: each chosen token, with the alternatives at its step. */
export const chatLogprobsSchema = z.looseObject({ content: z.array(tokenLogprob.extend({ top_logprobs: z.array(tokenLogprob).nullish() })).nullish() }).nullish();

const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** What a translation reads of a served `chat.completion`; a choice without a message is no chat completion. */
export const chatCompletionSchema = z.looseObject({
  id: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(toolCall).nullish(),
      }),
      logprobs: chatLogprobsSchema,
      finish_reason: z.string().nullish(),
    }),
  ),
});

/** What a translation reads of a served `chat.completion.chunk`; the usage chunk has no choice. */
export const chatChunkSchema = z.looseObject({
  id: z.string().nullish(),
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
        logprobs: chatLogprobsSchema,
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
});

/** A served chat completion, as read. */
export type ChatCompletionAnswer = z.output<typeof chatCompletionSchema>;
/** A served chunk, as read. */
export type ChatChunk = z.output<typeof chatChunkSchema>;
/** A chunk choice's `delta`, as read. */
export type ChatChunkDelta = NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>;
/** A choice's `logprobs`, as read. */
export type ChatLogprobs = z.output<typeof chatLogprobsSchema>;
