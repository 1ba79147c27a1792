import { z } from 'zod';

// The `tools` and `tool_choice` of a Responses request (spec part 1's table), as the official
// SDK and Codex CLI send them. Loose objects and a catch-all option for the same reason as
// the input items: a native upstream judges the hosted tools the gateway does not list.

const text = (what: string) => z.string({ error: `expected ${what}` });
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });
const toolName = (what: string) => text(what).regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'expected 1 to 64 letters, digits, "_" or "-"' });

const userLocation = z.looseObject({
  type: z.literal('approximate', { error: 'expected "approximate"' }),
  country: text('an ISO 3166-1 country code').nullish(),
  region: text('a region').nullish(),
  city: text('a city').nullish(),
  timezone: text('an IANA time zone').nullish(),
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
  name: toolName('the function name'),
  description: text('a description').nullish(),
  parameters: z.record(z.string(), z.unknown(), { error: 'expected a JSON schema object' }).nullish(),
  strict: z.boolean({ error: 'expected true or false' }).nullish(),
});
/** How a custom tool's free-text input is constrained: not at all, or by a grammar. */
const customToolFormat = z.union(
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('grammar'), syntax: choice(['lark', 'regex']), definition: text('the grammar definition') }),
  ],
  { error: 'expected {"type": "text"} or {"type": "grammar", "syntax", "definition"}' },
);
/** A custom (freeform) tool, as Codex CLI declares `apply_patch`: the model calls it with free text, not JSON. */
const customTool = z.looseObject({ type: z.literal('custom'), name: toolName('the tool name'), description: text('a description').nullish(), format: customToolFormat.nullish() });
/** A named group of function and custom tools, as Codex CLI declares its sub-agent tools; a call names its `namespace`. */
const namespaceTool = z.looseObject({
  type: z.literal('namespace'),
  name: toolName('the namespace name'),
  description: text('a description').nullish(),
  tools: z.array(z.union([functionTool, customTool], { error: 'expected a function or custom tool' }), { error: 'expected an array of function and custom tools' }),
});
/** Hosted tools the spec does not list (web_search, code_interpreter, image_generation, mcp, local_shell…) are the upstream's to judge. */
const otherTool = z.looseObject({
  type: z.string({ error: 'expected a tool type' }).refine((type) => !['web_search_preview', 'file_search', 'function', 'custom', 'namespace'].includes(type), { abort: true }),
});

/** One entry of `tools`. */
export const responsesToolSchema = z.union([webSearchTool, fileSearchTool, functionTool, customTool, namespaceTool, otherTool], {
  error: 'expected a tool: web_search_preview, file_search, function, custom or namespace with a name',
});

/** `tool_choice`: a mode, a named function or custom tool, a list of allowed tools, or a hosted tool's type. */
export const responsesToolChoiceSchema = z.union(
  [
    choice(['auto', 'none', 'required']),
    z.looseObject({ type: z.literal('function'), name: text('the function name').min(1, { error: 'must not be empty' }) }),
    z.looseObject({ type: z.literal('custom'), name: text('the tool name').min(1, { error: 'must not be empty' }) }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      mode: choice(['auto', 'required']),
      tools: z.array(z.looseObject({ type: text('a tool type') }), { error: 'expected an array of tools' }),
    }),
    z.looseObject({ type: z.string().refine((type) => !['function', 'custom', 'allowed_tools'].includes(type), { abort: true }) }),
  ],
  { error: 'expected "auto", "none", "required" or {"type": "function", "name": ...}' },
);

/** One validated entry of `tools`. */
export type ResponsesTool = z.output<typeof responsesToolSchema>;
/** A validated `tool_choice`. */
export type ResponsesToolChoice = z.output<typeof responsesToolChoiceSchema>;
