import { z } from 'zod';

// The input items of a Responses request (spec part 1's table; upstreams.md §2.2), as the
// official SDK, the Vercel AI SDK and Codex CLI send them. The fields the gateway reads are
// checked; every object stays loose, because a native upstream takes the rest (`status`, a
// tool call's `caller`…) and items grow faster than any gateway. The catch-all options of
// each union refuse the known types with `abort`, so a known item with a bad field reports
// that field, not the catch-all.

const text = (what: string) => z.string({ error: `expected ${what}` });
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });

const inputText = z.looseObject({ type: z.literal('input_text'), text: text('the text') });
const inputImage = z
  .looseObject({
    type: z.literal('input_image'),
    image_url: text('an image URL or data URI').nullish(),
    file_id: text('a file id').nullish(),
    detail: choice(['low', 'high', 'auto', 'original']).nullish(),
  })
  .refine((part) => (part.image_url ?? undefined) !== undefined || (part.file_id ?? undefined) !== undefined, { error: 'expected image_url or file_id' });
const inputFile = z
  .looseObject({
    type: z.literal('input_file'),
    file_id: text('a file id').nullish(),
    file_data: text('the file as a data URI').nullish(),
    file_url: text('a file URL').nullish(),
    filename: text('a file name').nullish(),
  })
  .refine((part) => [part.file_id, part.file_data, part.file_url].some((value) => (value ?? undefined) !== undefined), {
    error: 'expected file_id, file_data or file_url',
  });
/** Text an assistant message carries back into the conversation. */
const outputText = z.looseObject({ type: z.literal('output_text'), text: text('the text') });
const refusal = z.looseObject({ type: z.literal('refusal'), refusal: text('the refusal text') });
const knownPartTypes = ['input_text', 'input_image', 'input_file', 'output_text', 'refusal'];
/** Parts of other types, for a native upstream to judge. */
const otherPart = z.looseObject({
  type: z.string({ error: 'expected a content part type' }).refine((type) => !knownPartTypes.includes(type), { abort: true }),
});
const contentPart = z.union([inputText, inputImage, inputFile, outputText, refusal, otherPart], {
  error: 'expected a content part: input_text with text, input_image with image_url or file_id, input_file, or output_text',
});

/** What a tool's output may be: a string, or a list of input parts (text, image, file). */
const toolOutput = z.union([z.string(), z.array(z.union([inputText, inputImage, inputFile], { error: 'expected an input_text, input_image or input_file part' }))], {
  error: 'expected a string or an array of input_text, input_image and input_file parts',
});
const callId = text('the call id').min(1, { error: 'must not be empty' });

const messageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: choice(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPart)], { error: 'expected a string or an array of content parts' }),
});
const functionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: callId,
  name: text('the function name'),
  arguments: text('the arguments as a JSON string'),
});
const functionCallOutputItem = z.looseObject({ type: z.literal('function_call_output'), call_id: callId, output: toolOutput });
/** A call of a custom (freeform) tool, such as Codex's `apply_patch`: its input is free text. */
const customToolCallItem = z.looseObject({ type: z.literal('custom_tool_call'), call_id: callId, name: text('the tool name'), input: text('the input text') });
const customToolCallOutputItem = z.looseObject({ type: z.literal('custom_tool_call_output'), call_id: callId, output: toolOutput });
const reasoningItem = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ type: z.string(), text: text('the summary text') }), { error: 'expected an array of summary_text parts' }),
  encrypted_content: z.string().nullish(),
});
/** An earlier output item named by its id (the Vercel AI SDK sends these when `store` is on). */
const itemReference = z.looseObject({ type: z.literal('item_reference'), id: text('an item id').min(1, { error: 'must not be empty' }) });

const knownItemTypes = ['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'reasoning', 'item_reference', ...knownPartTypes];
/** Typed items of other kinds (local_shell_call, web_search_call, mcp_call…), for a native upstream to judge. */
const otherItem = z.looseObject({
  type: z.string({ error: 'expected an item type' }).refine((type) => !knownItemTypes.includes(type), { abort: true }),
  role: z.undefined({ error: 'an item with a role is a message; set type to "message" or remove it' }).optional(),
});

/** One item of `input`; a bare content part (`{type: "input_text", text}`) is a user turn, as the spec's table allows. */
export const responsesInputItemSchema = z.union(
  [messageItem, inputText, inputImage, inputFile, functionCallItem, functionCallOutputItem, customToolCallItem, customToolCallOutputItem, reasoningItem, itemReference, otherItem],
  { error: 'expected an input item: {role, content} or a typed item such as input_text, input_image, input_file, function_call_output' },
);

/** One input item as validated; fields beyond the checked ones are kept as the client sent them. */
export type ResponsesInputItem = z.output<typeof responsesInputItemSchema>;
/** One part of a message's content array. */
export type ResponsesContentPart = z.output<typeof contentPart>;
/** A tool's output as a function_call_output or custom_tool_call_output carries it. */
export type ResponsesToolOutput = z.output<typeof toolOutput>;
