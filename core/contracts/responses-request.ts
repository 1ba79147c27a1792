import { z } from 'zod';
import { responsesInputItemSchema } from './responses-input-items.js';
import { responsesToolChoiceSchema, responsesToolSchema } from './responses-tools.js';

// The fields of spec part 1's table, and those the official SDK, the Vercel AI SDK and Codex
// CLI send besides (`include`, `store`, `text`, `prompt_cache_key`…), are checked with their
// ranges and enums. Every other field passes through to a native upstream untouched (the
// Responses API grows faster than any gateway), which is why the objects are loose; a
// translator that cannot say a field refuses it by name (translators/responses-to-chat).

const text = (what: string) => z.string({ error: `expected ${what}` });
const number = (minimum: number, maximum: number) =>
  z.number({ error: `expected a number from ${minimum} to ${maximum}` }).min(minimum, { error: `expected at least ${minimum}` }).max(maximum, {
    error: `expected at most ${maximum}`,
  });
const positiveInteger = z.number({ error: 'expected a positive integer' }).int({ error: 'expected an integer' }).min(1, { error: 'expected at least 1' });
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });
const boolean = z.boolean({ error: 'expected true or false' });

// The limits OpenAI documents for `metadata`: 16 pairs, keys up to 64, values up to 512 characters.
const metadata = z
  .record(text('a key').max(64, { error: 'expected keys of at most 64 characters' }), text('a string value').max(512, { error: 'expected values of at most 512 characters' }), {
    error: 'expected an object of string values',
  })
  .refine((value) => Object.keys(value).length <= 16, { error: 'expected at most 16 keys' });

/** The efforts and summary kinds of the official SDK's `Reasoning` (openai 6.49). */
const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const summaryKinds = ['auto', 'concise', 'detailed'] as const;

/** `text.format`: plain text, any JSON object, or JSON that follows a schema. */
const textFormat = z.union(
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      name: text('the schema name').regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'expected 1 to 64 letters, digits, "_" or "-"' }),
      schema: z.record(z.string(), z.unknown(), { error: 'expected a JSON schema object' }),
      description: text('a description').nullish(),
      strict: boolean.nullish(),
    }),
  ],
  { error: 'expected {"type": "text"}, {"type": "json_object"} or {"type": "json_schema", "name", "schema"}' },
);

/** What `include` may ask for (the official SDK's `ResponseIncludable`, openai 6.49). */
export const responsesIncludables = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
] as const;

/** `POST /v1/responses`, the standard format of the `responses` operation (spec part 1). */
export const responsesRequestSchema = z.looseObject({
  model: text('a model name').min(1, { error: 'must not be empty' }),
  input: z.union([text('a string').min(1, { error: 'must not be empty' }), z.array(responsesInputItemSchema).min(1, { error: 'expected at least one item' })], {
    error: 'expected a string or an array of input items',
  }),
  instructions: text('a string').nullish(),
  max_output_tokens: positiveInteger.nullish(),
  stream: boolean.nullish(),
  stream_options: z.looseObject({ include_obfuscation: boolean.nullish() }).nullish(),
  temperature: number(0, 2).nullish(),
  top_p: number(0, 1).nullish(),
  top_logprobs: z.number({ error: 'expected an integer from 0 to 20' }).int({ error: 'expected an integer' }).min(0, { error: 'expected at least 0' }).max(20, { error: 'expected at most 20' }).nullish(),
  reasoning: z
    .looseObject({
      effort: choice(reasoningEfforts).nullish(),
      // `none` is the spec's word for no summary; the SDK leaves the field out instead.
      summary: choice([...summaryKinds, 'none']).nullish(),
      generate_summary: choice(summaryKinds).nullish(),
    })
    .nullish(),
  text: z.looseObject({ format: textFormat.nullish(), verbosity: choice(['low', 'medium', 'high']).nullish() }).nullish(),
  tools: z.array(responsesToolSchema, { error: 'expected an array of tools' }).nullish(),
  tool_choice: responsesToolChoiceSchema.nullish(),
  parallel_tool_calls: boolean.nullish(),
  max_tool_calls: positiveInteger.nullish(),
  previous_response_id: text('a response id').min(1, { error: 'must not be empty' }).max(256, { error: 'expected at most 256 characters' }).nullish(),
  truncation: choice(['disabled', 'auto']).nullish(),
  include: z.array(choice(responsesIncludables), { error: 'expected an array of include values' }).nullish(),
  store: boolean.nullish(),
  background: boolean.nullish(),
  metadata: metadata.nullish(),
  // Codex CLI labels each request with its session and turn (recorded: test/fixtures/agents/codex).
  client_metadata: z.record(z.string(), z.unknown(), { error: 'expected an object' }).nullish(),
  user: text('a string').max(256, { error: 'expected at most 256 characters' }).nullish(),
  safety_identifier: text('a string').max(64, { error: 'expected at most 64 characters' }).nullish(),
  prompt_cache_key: text('a string').nullish(),
  prompt_cache_retention: choice(['in_memory', '24h']).nullish(),
  service_tier: choice(['auto', 'default', 'flex', 'scale', 'priority']).nullish(),
});

/** A validated Responses request; fields beyond the checked ones are kept as the client sent them. */
export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
