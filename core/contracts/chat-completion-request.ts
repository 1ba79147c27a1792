import { z } from 'zod';

// Known fields are type-checked with ranges; unknown fields pass through (clients and SDKs
// add fields faster than any gateway), which is why these objects are loose.

const contentPart = z.looseObject({
  type: z.string({ error: 'expected a content part type such as "text" or "image_url"' }),
  text: z.string({ error: 'expected a string' }).optional(),
  image_url: z
    .union([z.string(), z.looseObject({ url: z.string({ error: 'expected a URL or data URI' }), detail: z.string().optional() })])
    .optional(),
  input_audio: z.looseObject({ data: z.string({ error: 'expected base64 audio' }), format: z.string({ error: 'expected an audio format' }) }).optional(),
  file: z
    .looseObject({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional(), url: z.string().optional() })
    .optional(),
});

const toolCall = z.looseObject({
  id: z.string({ error: 'expected the tool call id' }),
  type: z.literal('function', { error: 'expected "function"' }).optional(),
  function: z.looseObject({
    name: z.string({ error: 'expected the function name' }),
    arguments: z.string({ error: 'expected the arguments as a JSON string' }),
  }),
});

// Opaque reasoning sent back (`reasoning_details`, see `ChatReasoningDetail`): lenient, as a
// client sends back every kind it got from any gateway; a family reads the kinds it wrote.
const reasoningDetail = z.looseObject({
  type: z.string({ error: 'expected a reasoning detail type such as "reasoning.encrypted"' }),
  data: z.string({ error: 'expected a string' }).nullish(),
  id: z.string({ error: 'expected a string' }).nullish(),
});

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function'], {
    error: 'expected one of system, developer, user, assistant, tool, function',
  }),
  content: z.union([z.string(), z.array(contentPart), z.null()], { error: 'expected a string or an array of content parts' }).optional(),
  name: z.string({ error: 'expected a string' }).optional(),
  tool_calls: z.array(toolCall, { error: 'expected an array of tool calls' }).nullish(),
  tool_call_id: z.string({ error: 'expected a string' }).optional(),
  reasoning_content: z.string().nullish(),
  reasoning_details: z.array(reasoningDetail, { error: 'expected an array of reasoning details' }).nullish(),
});

const number = (minimum: number, maximum: number) =>
  z.number({ error: `expected a number from ${minimum} to ${maximum}` }).min(minimum, { error: `expected at least ${minimum}` }).max(maximum, {
    error: `expected at most ${maximum}`,
  });
const integer = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' }).min(minimum, { error: `expected at least ${minimum}` }).max(maximum, {
    error: `expected at most ${maximum}`,
  });

const functionTool = z.looseObject({
  type: z.literal('function', { error: 'expected "function"' }),
  function: z.looseObject({
    name: z.string({ error: 'expected the function name' }).min(1, { error: 'must not be empty' }),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown(), { error: 'expected a JSON schema object' }).optional(),
  }),
});

/** `POST /v1/chat/completions`, the standard format of the `chat` operation. */
export const chatCompletionRequestSchema = z.looseObject(
  {
    model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
    messages: z.array(message, { error: 'expected an array of messages' }).min(1, { error: 'expected at least one message' }),
    stream: z.boolean({ error: 'expected true or false' }).nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean({ error: 'expected true or false' }).nullish() }).nullish(),
    temperature: number(0, 2).nullish(),
    top_p: number(0, 1).nullish(),
    top_k: integer(1).nullish(),
    seed: integer(Number.MIN_SAFE_INTEGER).nullish(),
    max_tokens: integer(1).nullish(),
    max_completion_tokens: integer(1).nullish(),
    stop: z.union([z.string(), z.array(z.string())], { error: 'expected a string or an array of strings' }).nullish(),
    frequency_penalty: number(-2, 2).nullish(),
    presence_penalty: number(-2, 2).nullish(),
    n: integer(1, 8).nullish(),
    logprobs: z.boolean({ error: 'expected true or false' }).nullish(),
    top_logprobs: integer(0, 20).nullish(),
    modalities: z.array(z.string(), { error: 'expected an array such as ["text", "audio"]' }).nullish(),
    audio: z.record(z.string(), z.unknown(), { error: 'expected an object' }).nullish(),
    response_format: z
      .looseObject({
        type: z.enum(['text', 'json_object', 'json_schema'], { error: 'expected text, json_object or json_schema' }),
        json_schema: z
          .looseObject({ name: z.string().optional(), schema: z.record(z.string(), z.unknown()).optional(), strict: z.boolean().nullish() })
          .optional(),
      })
      .nullish(),
    tools: z.array(functionTool, { error: 'expected an array of function tools' }).nullish(),
    tool_choice: z
      .union(
        [
          z.enum(['auto', 'none', 'required']),
          z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string({ error: 'expected the function name' }) }) }),
        ],
        { error: 'expected auto, none, required, or {type: "function", function: {name}}' },
      )
      .nullish(),
    reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high'], { error: 'expected none, minimal, low, medium or high' }).nullish(),
    extra_body: z
      .looseObject({ gx: z.record(z.string(), z.unknown(), { error: 'expected an object of native fields' }).optional() }, { error: 'expected an object' })
      .nullish(),
  },
  { error: 'expected a JSON object' },
);

/** A chat completion request as handlers receive it. */
export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;
/** One message of a chat completion request. */
export type ChatMessage = ChatCompletionRequest['messages'][number];
