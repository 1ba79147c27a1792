// A third-party provider plugin: streamed chat completions from an OpenAI-compatible upstream
// (POST {base_url}{path_prefix}/chat/completions with "stream": true; server-sent events of
// `chat.completion.chunk`, then `data: [DONE]`, as in fixtures/chat-stream.sse). The handler
// returns the unread upstream body and a decoder; the gateway reads the body, splits the
// events and calls the decoder once per event, synchronously.
import { z } from 'zod';
import {
  defineProvider,
  invalidRequest,
  upstreamStreamTruncated,
  type ChatCompletionRequest,
  type StreamDecoder,
  type StreamOutput,
} from 'model-gateway';
import {
  bearerAuthorization,
  callUpstream,
  createStatusErrorMapper,
  describeUpstreamError,
  errorForUpstreamBody,
  invalidUpstreamAnswer,
  parseUpstreamJson,
  pathPrefixOption,
  prefixedUpstreamUrl,
  stopAfterFirstError,
  streamFailure,
  type UpstreamErrorDialect,
} from 'model-gateway/kit';

const optionsSchema = z.strictObject({ path_prefix: pathPrefixOption('/v1') });
type Options = z.output<typeof optionsSchema>;

// The upstream's error body, `{"error": {"message", "type", "code"}}`, also sent as an event mid-stream.
const errorSchema = z.looseObject({ error: z.looseObject({ message: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }) });
const errorDialect: UpstreamErrorDialect<z.output<typeof errorSchema>> = {
  errorSchema,
  describe: (body) => describeUpstreamError(body.error.message, body.error.code?.toString()),
};
const statusError = createStatusErrorMapper(errorDialect);

const count = z.number().int().min(0).nullish();
// Lenient: only what the decoder reads is checked; the chunk goes to the client as received.
const chunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: z.looseObject({ content: z.string().nullish() }).nullish(), finish_reason: z.string().nullish() })).default([]),
  usage: z
    .looseObject({
      prompt_tokens: count,
      completion_tokens: count,
      prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
    })
    .nullish(),
});

/**
 * Passes each chunk through and reports its usage. The stream is whole only when `[DONE]`
 * or a finish reason came: an upstream that breaks off must not look like a short answer.
 * `stopAfterFirstError` keeps the decoder quiet after it reported an error.
 */
export function createChunkDecoder(): StreamDecoder {
  let finished = false;
  return stopAfterFirstError({
    push(frame) {
      if (frame.data === '[DONE]') {
        finished = true;
        return [];
      }
      let json: unknown;
      try {
        json = parseUpstreamJson(frame.data);
      } catch (cause) {
        return streamFailure(invalidUpstreamAnswer('a chat completion chunk', { cause }));
      }
      // An error event in the middle of the stream carries no status: judged as the upstream's failure (500).
      const failure = errorSchema.safeParse(json);
      if (failure.success) return streamFailure(errorForUpstreamBody(500, failure.data, errorDialect));
      const chunk = chunkSchema.safeParse(json);
      if (!chunk.success) return streamFailure(invalidUpstreamAnswer('a chat completion chunk', { cause: chunk.error }));
      const text = chunk.data.choices.map((choice) => choice.delta?.content ?? '').join('');
      if (chunk.data.choices.some((choice) => typeof choice.finish_reason === 'string')) finished = true;
      // content: true commits the stream to this channel; before it the gateway may still fail over.
      const outputs: StreamOutput[] = [{ type: 'event', data: frame.data, content: text !== '', outputCharacters: text.length }];
      const usage = chunk.data.usage;
      if (usage !== null && usage !== undefined) {
        outputs.push({
          type: 'usage',
          usage: {
            inputTokens: usage.prompt_tokens ?? 0,
            cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
            outputTokens: usage.completion_tokens ?? 0,
            reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
            source: 'upstream',
          },
        });
      }
      return outputs;
    },
    end: () => (finished ? [{ type: 'event', data: '[DONE]', content: false }] : streamFailure(upstreamStreamTruncated())),
  });
}

export default defineProvider<Options, { chat: ChatCompletionRequest }>({
  apiVersion: 2,
  name: 'acme-streaming-chat',
  options: optionsSchema,
  prepare: {
    chat: (request) => {
      if (request.stream !== true) throw invalidRequest('stream: this model only streams; send "stream": true', { param: 'stream' });
      return request;
    },
  },
  create: (_options, host) => ({
    operations: {
      async chat(call) {
        // Usage is always asked for, so the stream is billed on the upstream's counts.
        const body = JSON.stringify({ ...call.request, model: call.upstreamModel, stream: true, stream_options: { include_usage: true } });
        const response = await callUpstream(host, call, { url: prefixedUpstreamUrl(call, '/chat/completions'), headers: bearerAuthorization(call), body }, statusError);
        return { kind: 'stream', body: response.body, decoder: createChunkDecoder(), framing: 'sse' };
      },
    },
  }),
});
