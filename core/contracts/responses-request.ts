import { z } from 'zod';

// The fields of spec part 1's table are checked with their ranges and enums; every other
// field passes through to the upstream untouched (the Responses API grows faster than any
// gateway), which is why the objects are loose. The catch-all options of each union refuse
// the known types with `abort`, so a known item with a bad field reports that field, not the
// catch-all.

const text = (what: string) => z.string({ error: `expected ${what}` });
const number = (minimum: number, maximum: number) =>
  z.number({ error: `expected a number from ${minimum} to ${maximum}` }).min(minimum, { error: `expected at least ${minimum}` }).max(maximum, {
    error: `expected at most ${maximum}`,
  });
const positiveInteger = z.number({ error: 'expected a positive integer' }).int({ error: 'expected an integer' }).min(1, { error: 'expected at least 1' });
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });

const inputText = z.looseObject({ type: z.literal('input_text'), text: text('the text') });
const inputImage = z
  .looseObject({
    type: z.literal('input_image'),
    image_url: text('an image URL or data URI').optional(),
    file_id: text('a file id').optional(),
    detail: choice(['low', 'high', 'auto']).optional(),
  })
  .refine((part) => part.image_url !== undefined || part.file_id !== undefined, { error: 'expected image_url or file_id' });
const inputFile = z
  .looseObject({
    type: z.literal('input_file'),
    file_id: text('a file id').optional(),
    file_data: text('the file as a data URI').optional(),
    file_url: text('a file URL').optional(),
    filename: text('a file name').optional(),
  })
  .refine((part) => part.file_id !== undefined || part.file_data !== undefined || part.file_url !== undefined, {
    error: 'expected file_id, file_data or file_url',
  });
/** Parts an assistant message carries back into the conversation (`output_text`, `refusal`). */
const otherPart = z.looseObject({
  type: z.string({ error: 'expected a content part type' }).refine((type) => !['input_text', 'input_image', 'input_file'].includes(type), { abort: true }),
});
const contentPart = z.union([inputText, inputImage, inputFile, otherPart], {
  error: 'expected a content part: input_text with text, input_image with image_url or file_id, or input_file',
});

const messageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: choice(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPart)], { error: 'expected a string or an array of content parts' }),
});
/** Typed items other than messages: function_call_output, function_call, reasoning, item_reference… */
const otherItem = z.looseObject({
  type: z.string({ error: 'expected an item type' }).refine((type) => type !== 'message', { abort: true }),
  role: z.undefined({ error: 'an item with a role is a message; set type to "message" or remove it' }).optional(),
});
/** A bare content part given as an input item (`{type: "input_text", text}`) is a user turn, as the spec's table allows. */
const inputItem = z.union([messageItem, inputText, inputImage, inputFile, otherItem], {
  error: 'expected an input item: {role, content} or a typed item such as input_text, input_image, input_file, function_call_output',
});

const userLocation = z.looseObject({
  type: z.literal('approximate', { error: 'expected "approximate"' }),
  country: text('an ISO 3166-1 country code').optional(),
  region: text('a region').optional(),
  city: text('a city').optional(),
  timezone: text('an IANA time zone').optional(),
});
const webSearchTool = z.looseObject({
  type: z.literal('web_search_preview'),
  search_context_size: choice(['low', 'medium', 'high']).optional(),
  user_location: userLocation.nullish(),
});
const fileSearchTool = z.looseObject({
  type: z.literal('file_search'),
  vector_store_ids: z.array(text('a vector store id'), { error: 'expected a list of vector store ids' }).min(1, { error: 'expected at least one vector store id' }),
  max_num_results: z.number({ error: 'expected an integer from 1 to 50' }).int().min(1, { error: 'expected at least 1' }).max(50, { error: 'expected at most 50' }).optional(),
});
const functionTool = z.looseObject({
  type: z.literal('function'),
  name: text('the function name').regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'expected 1 to 64 letters, digits, "_" or "-"' }),
  description: text('a description').nullish(),
  parameters: z.record(z.string(), z.unknown(), { error: 'expected a JSON schema object' }).nullish(),
  strict: z.boolean({ error: 'expected true or false' }).nullish(),
});
/** Hosted tools the spec does not list (web_search, code_interpreter, image_generation, mcp…) are the upstream's to judge. */
const otherTool = z.looseObject({
  type: z.string({ error: 'expected a tool type' }).refine((type) => !['web_search_preview', 'file_search', 'function'].includes(type), { abort: true }),
});
const tool = z.union([webSearchTool, fileSearchTool, functionTool, otherTool], {
  error: 'expected a tool: web_search_preview, file_search, or function with a name',
});

const toolChoice = z.union(
  [
    choice(['auto', 'none', 'required']),
    z.looseObject({ type: z.literal('function'), name: text('the function name').min(1, { error: 'must not be empty' }) }),
    z.looseObject({ type: z.string().refine((type) => type !== 'function', { abort: true }) }),
  ],
  { error: 'expected "auto", "none", "required" or {"type": "function", "name": ...}' },
);

// The limits OpenAI documents for `metadata`: 16 pairs, keys up to 64, values up to 512 characters.
const metadata = z
  .record(text('a key').max(64, { error: 'expected keys of at most 64 characters' }), text('a string value').max(512, { error: 'expected values of at most 512 characters' }), {
    error: 'expected an object of string values',
  })
  .refine((value) => Object.keys(value).length <= 16, { error: 'expected at most 16 keys' });

/** `POST /v1/responses`, the standard format of the `responses` operation (spec part 1). */
export const responsesRequestSchema = z.looseObject({
  model: text('a model name').min(1, { error: 'must not be empty' }),
  input: z.union([text('a string').min(1, { error: 'must not be empty' }), z.array(inputItem).min(1, { error: 'expected at least one item' })], {
    error: 'expected a string or an array of input items',
  }),
  instructions: text('a string').nullish(),
  max_output_tokens: positiveInteger.nullish(),
  stream: z.boolean({ error: 'expected true or false' }).nullish(),
  temperature: number(0, 2).nullish(),
  top_p: number(0, 1).nullish(),
  reasoning: z
    .looseObject({ effort: choice(['none', 'low', 'medium', 'high']).nullish(), summary: choice(['auto', 'none', 'detailed']).nullish() })
    .nullish(),
  tools: z.array(tool, { error: 'expected an array of tools' }).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean({ error: 'expected true or false' }).nullish(),
  max_tool_calls: positiveInteger.nullish(),
  previous_response_id: text('a response id').min(1, { error: 'must not be empty' }).max(256, { error: 'expected at most 256 characters' }).nullish(),
  truncation: choice(['disabled', 'auto']).nullish(),
  metadata: metadata.nullish(),
  user: text('a string').max(256, { error: 'expected at most 256 characters' }).nullish(),
});

/** A validated Responses request; fields beyond the spec's table are kept as the client sent them. */
export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
