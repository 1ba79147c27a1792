import { z } from 'zod';
import type { ChatMessage } from '../../core/index.js';
import { parseUpstreamJson } from '../../core/kit/index.js';

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

/**
 * `reasoning_details` of a message or delta (the shape of `ChatReasoningDetail`): opaque
 * reasoning the family wants back with the turn, such as gx's thought signatures. Only the
 * encrypted kind with its `data` is what a translation carries; other kinds are read as
 * nothing, and so is a list that is not one.
 */
export const chatReasoningDetailsSchema = z
  .array(z.looseObject({ type: z.string().nullish(), data: z.string().nullish(), id: z.string().nullish() }))
  .nullish()
  .catch(undefined);

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
        reasoning_details: chatReasoningDetailsSchema,
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
            reasoning_details: chatReasoningDetailsSchema,
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
/** The encrypted reasoning of a message or delta: each token (`data`) and the tool call it belongs to (`id`, absent for the text). */
export interface ChatSignature {
  data: string;
  id: string | undefined;
}

/** {@link ChatSignature}s as the `reasoning_details` of a chat message sent back (`ChatReasoningDetail`s): what a family that signs reads. */
export function chatReasoningDetails(signatures: readonly ChatSignature[]): NonNullable<ChatMessage['reasoning_details']> {
  return signatures.map((signature) => (signature.id === undefined ? { type: 'reasoning.encrypted', data: signature.data } : { type: 'reasoning.encrypted', data: signature.data, id: signature.id }));
}

/** The `reasoning.encrypted` entries of `details` with their `data`, as {@link ChatSignature}s; the other kinds are not carried. */
export function chatSignatures(details: z.output<typeof chatReasoningDetailsSchema>): ChatSignature[] {
  return (details ?? []).flatMap((detail) =>
    detail.type === 'reasoning.encrypted' && typeof detail.data === 'string' && detail.data !== '' ? [{ data: detail.data, id: detail.id ?? undefined }] : [],
  );
}

/** A choice's `logprobs`, as read. */
export type ChatLogprobs = z.output<typeof chatLogprobsSchema>;

/** A served chat stream event: the chunk it carries, or why it carries none a translation can read. */
export type ChatChunkReading = { kind: 'chunk'; chunk: ChatChunk } | { kind: 'unreadable'; error: unknown };

/**
 * The chunk of a served chat stream's event, read once for every translator: the object the
 * gateway's own decoder built (`value`, gx's chunks) as it is, without parsing or a schema;
 * otherwise `data`, an upstream's text a provider passed on (gp), parsed and read with the
 * lenient {@link chatChunkSchema}. `[DONE]` is for the caller to recognize first.
 */
export function readChatChunk(output: { data: string; value?: unknown }): ChatChunkReading {
  if (output.value !== undefined) return { kind: 'chunk', chunk: output.value as ChatChunk };
  let json: unknown;
  try {
    json = parseUpstreamJson(output.data);
  } catch (error) {
    return { kind: 'unreadable', error };
  }
  const parsed = chatChunkSchema.safeParse(json);
  return parsed.success ? { kind: 'chunk', chunk: parsed.data } : { kind: 'unreadable', error: parsed.error };
}
