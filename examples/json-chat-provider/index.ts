// A third-party provider plugin: whole chat completions from an OpenAI-compatible upstream
// (POST {base_url}{path_prefix}/chat/completions, the key as a Bearer token). The contract and
// the error codes come from `model-gateway`, the HTTP and the error mapping from its kit,
// `model-gateway/kit`; this file only says what is its own: the options, what it refuses, how
// it reads the upstream's answer and its errors.
import { z } from 'zod';
import { defineProvider, invalidRequest, type ChatCompletion, type ChatCompletionRequest, type Usage } from 'model-gateway';
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
  type UpstreamErrorDialect,
} from 'model-gateway/kit';

const optionsSchema = z.strictObject({
  /** Between the channel's base_url and /chat/completions. */
  path_prefix: pathPrefixOption('/v1'),
  /** Sent as `temperature` when the client sends none. */
  default_temperature: z.number().min(0).max(2).optional(),
});
type Options = z.output<typeof optionsSchema>;

// Upstream bodies are read leniently: only what is used is checked, the rest passes.
const completionSchema = z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullish() }) })).min(1),
  usage: z
    .looseObject({
      prompt_tokens: z.number().int().min(0),
      completion_tokens: z.number().int().min(0),
      prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().min(0).nullish() }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().min(0).nullish() }).nullish(),
    })
    .nullish(),
});

// The upstream's error body, `{"error": {"message", "type", "code"}}`, read as leniently. The
// kit judges a refusal by its status (429 and 5xx retried on another channel, other 4xx passed
// back) and gives the client the upstream's own words: `message (code)`.
const errorSchema = z.looseObject({ error: z.looseObject({ message: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }) });
const errorDialect: UpstreamErrorDialect<z.output<typeof errorSchema>> = {
  errorSchema,
  describe: (body) => describeUpstreamError(body.error.message, body.error.code?.toString()),
};
const statusError = createStatusErrorMapper(errorDialect);

/** The upstream's counts (fixtures/chat-completion.json): prompt and completion include their cached and reasoning parts, as the gateway's do. */
function usageOf(usage: z.output<typeof completionSchema>['usage']): Usage {
  if (usage === null || usage === undefined) return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'estimated' };
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
    source: 'upstream',
  };
}

export default defineProvider<Options, { chat: ChatCompletionRequest }>({
  apiVersion: 2,
  name: 'acme-json-chat',
  options: optionsSchema,
  // Runs once per client request, before any quota is reserved: refuse what this family cannot do.
  prepare: {
    chat: (request) => {
      if (request.stream === true) throw invalidRequest('stream: this model answers whole completions only; send "stream": false', { param: 'stream' });
      return request;
    },
  },
  create: (options, host) => ({
    operations: {
      async chat(call) {
        const body = JSON.stringify({ ...call.request, model: call.upstreamModel, temperature: call.request.temperature ?? options.default_temperature });
        // A non-2xx answer is thrown as the gateway error for its status, with the upstream's message.
        const response = await callUpstream(host, call, { url: prefixedUpstreamUrl(call, '/chat/completions'), headers: bearerAuthorization(call), body }, statusError);
        let json: unknown;
        try {
          json = parseUpstreamJson(await response.body.text());
        } catch (cause) {
          throw invalidUpstreamAnswer('a chat completion', { cause });
        }
        // Some upstreams answer an error with HTTP 200: it carries no status, so it is judged as the upstream's failure (500).
        const failure = errorSchema.safeParse(json);
        if (failure.success) throw errorForUpstreamBody(500, failure.data, errorDialect);
        const parsed = completionSchema.safeParse(json);
        if (!parsed.success) throw invalidUpstreamAnswer('a chat completion', { cause: parsed.error });
        // The client sees its own model name, not the upstream's.
        const completion = { ...(parsed.data as unknown as ChatCompletion), model: call.model };
        return { kind: 'json', body: completion, usage: usageOf(parsed.data.usage) };
      },
    },
  }),
});
