import { z } from 'zod';

// The Messages format (`POST /v1/messages`) as the Anthropic SDK and Claude Code send it,
// validated strictly: it is translated, never passed through, so a field the gateway does not
// read would be lost without a word. Fields and blocks of the format that name Anthropic's own
// services (server tools, containers, MCP servers, the Files API) are refused here with what
// to change; the rest is accepted, and what the gateway does with each is in docs/routes.md.

const text = (what: string) => z.string({ error: `expected ${what}` });
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `expected ${values.length === 1 ? `"${values[0]}"` : `one of ${values.join(', ')}`}` });
const number = (minimum: number, maximum: number) =>
  z.number({ error: `expected a number from ${minimum} to ${maximum}` }).min(minimum, { error: `expected at least ${minimum}` }).max(maximum, {
    error: `expected at most ${maximum}`,
  });
const positiveInteger = z.number({ error: 'expected a positive integer' }).int({ error: 'expected an integer' }).min(1, { error: 'expected at least 1' });
const flag = z.boolean({ error: 'expected true or false' });

/**
 * A field the gateway refuses with `why` when it is set; `null` is accepted, since the format
 * uses it for "none".
 */
const refused = (why: string) =>
  z
    .unknown()
    .superRefine((value, context) => {
      if (value !== undefined && value !== null) context.addIssue({ code: 'custom', message: why });
    })
    .optional();

/** A prompt-caching breakpoint. Accepted and not forwarded: the upstream's own caching applies (docs/routes.md). */
const cacheControl = z.strictObject({ type: choice(['ephemeral']), ttl: choice(['5m', '1h']).optional() }).nullish();

const textBlock = z.strictObject({
  type: z.literal('text'),
  text: text('the text'),
  cache_control: cacheControl,
  // Citations an earlier answer carried, sent back with its text: the text is what counts.
  citations: z.array(z.unknown(), { error: 'expected an array of citations' }).nullish(),
});

const filesApiSource = z.strictObject({
  type: z.literal('file'),
  file_id: refused('the Files API is not served by this gateway; send the file inline as base64 (source.type "base64") or by URL'),
});
const urlSource = z.strictObject({ type: z.literal('url'), url: text('a URL').min(1, { error: 'must not be empty' }) });

const imageSource = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('base64'), media_type: choice(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), data: text('base64 image data') }),
    urlSource,
    filesApiSource,
  ],
  { error: 'expected an image source: {"type": "base64", "media_type", "data"} or {"type": "url", "url"}' },
);
const imageBlock = z.strictObject({
  type: z.literal('image'),
  source: imageSource,
  cache_control: cacheControl,
  transformations: refused('image transformations are not served by this gateway; send the image as it should be seen'),
});

const documentSource = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('base64'), media_type: choice(['application/pdf']), data: text('base64 PDF data') }),
    z.strictObject({ type: z.literal('text'), media_type: choice(['text/plain']), data: text('the document text') }),
    z.strictObject({ type: z.literal('content'), content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock]))], { error: 'expected a string or an array of text and image blocks' }) }),
    urlSource,
    filesApiSource,
  ],
  { error: 'expected a document source: base64 (PDF), text, content or url' },
);
const documentBlock = z.strictObject({
  type: z.literal('document'),
  source: documentSource,
  title: text('a title').nullish(),
  context: text('a string').nullish(),
  // Citations in the answer cannot be produced; the document itself is still read (docs/routes.md).
  citations: z.strictObject({ enabled: flag.optional() }).nullish(),
  cache_control: cacheControl,
});

const toolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: text('the tool use id').min(1, { error: 'must not be empty' }),
  name: text('the tool name').min(1, { error: 'must not be empty' }),
  input: z.record(z.string(), z.unknown(), { error: 'expected the tool input as a JSON object' }),
  cache_control: cacheControl,
  // How an earlier answer said the tool was called: this gateway only answers direct calls.
  caller: z.strictObject({ type: choice(['direct']) }).nullish(),
});

const toolResultBlock = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: text('the id of the tool_use block this answers').min(1, { error: 'must not be empty' }),
  content: z
    .union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock], { error: 'expected a text, image or document block' }))], {
      error: 'expected a string or an array of text, image and document blocks',
    })
    .optional(),
  is_error: flag.optional(),
  cache_control: cacheControl,
});

const thinkingBlock = z.strictObject({ type: z.literal('thinking'), thinking: text('the thinking text'), signature: text('the signature an answer gave') });
const redactedThinkingBlock = z.strictObject({ type: z.literal('redacted_thinking'), data: text('the redacted thinking data') });

/** Blocks of Anthropic's server tools and services, which only Anthropic's API can produce or read. */
const serverBlockTypes = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'compaction',
  'search_result',
] as const;
const serverBlock = z.looseObject({
  type: z.enum(serverBlockTypes).refine(() => false, {
    error: (issue) => `a ${String(issue.input)} block belongs to Anthropic's own tools and services, which this gateway does not serve; leave it out`,
  }),
});

const contentBlock = z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock, serverBlock], {
  error: 'expected a content block: text, image, document, tool_use, tool_result, thinking or redacted_thinking',
});

const message = z.strictObject({
  role: choice(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(contentBlock)], { error: 'expected a string or an array of content blocks' }),
});

/**
 * A custom tool. A typed tool (`bash_20250124`, `web_search_20250305`, `text_editor_…`) is one of
 * Anthropic's own, refused by its type, which is checked first so that is what the client reads.
 */
const tool = z.strictObject(
  {
    type: z
      .string({ error: 'expected "custom"' })
      .refine((type) => type === 'custom', {
        error: (issue) => `the Anthropic tool type ${JSON.stringify(issue.input)} is not served by this gateway; declare a custom tool with name, description and input_schema instead`,
      })
      .nullish(),
    name: text('the tool name').regex(/^[a-zA-Z0-9_-]{1,128}$/, { error: 'expected 1 to 128 letters, digits, "_" or "-"' }),
    description: text('a description').optional(),
    input_schema: z.looseObject({ type: z.literal('object', { error: 'expected "object"' }) }, { error: 'expected a JSON schema object with "type": "object"' }),
    cache_control: cacheControl,
    strict: flag.optional(),
    // A hint to stream the input before it is validated; chat streams every call's arguments anyway.
    eager_input_streaming: flag.nullish(),
    input_examples: refused('tool input examples are not served by this gateway; describe the input in the description instead'),
    // Anthropic keeps a deferred tool out of the model's context until a tool search finds it;
    // the chat request leaves it out likewise (Claude Code declares one, `DeferredToolPlaceholder`).
    defer_loading: flag.optional(),
    allowed_callers: z
      .array(z.string(), { error: 'expected an array of callers' })
      .refine((callers) => callers.every((caller) => caller === 'direct'), {
        error: 'only direct calls are served by this gateway (code execution is not); set ["direct"] or leave it out',
      })
      .optional(),
  },
  { error: 'expected a tool: {name, description, input_schema}' },
);

const toolChoice = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('auto'), disable_parallel_tool_use: flag.optional() }),
    z.strictObject({ type: z.literal('any'), disable_parallel_tool_use: flag.optional() }),
    z.strictObject({ type: z.literal('tool'), name: text('the tool name').min(1, { error: 'must not be empty' }), disable_parallel_tool_use: flag.optional() }),
    z.strictObject({ type: z.literal('none') }),
  ],
  { error: 'expected a tool choice: {"type": "auto"}, {"type": "any"}, {"type": "tool", "name"} or {"type": "none"}' },
);

const thinkingDisplay = choice(['summarized', 'omitted']).nullish();
const thinking = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('enabled'), budget_tokens: z.number({ error: 'expected an integer of at least 1024' }).int({ error: 'expected an integer' }).min(1024, { error: 'expected at least 1024' }), display: thinkingDisplay }),
    z.strictObject({ type: z.literal('adaptive'), display: thinkingDisplay }),
    z.strictObject({ type: z.literal('between_tools') }),
    z.strictObject({ type: z.literal('disabled') }),
  ],
  { error: 'expected {"type": "enabled", "budget_tokens"}, {"type": "adaptive"} or {"type": "disabled"}' },
);

const jsonOutputFormat = z.strictObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown(), { error: 'expected a JSON schema object' }) }).nullish();
const outputConfig = z.strictObject({ effort: choice(['low', 'medium', 'high', 'xhigh', 'max']).nullish(), format: jsonOutputFormat });

const system = z.union([z.string(), z.array(textBlock)], { error: 'expected a string or an array of text blocks' });

/** What the count_tokens request and the create request share: the conversation and what shapes its prompt. */
const promptFields = {
  model: text('a model name').min(1, { error: 'must not be empty' }),
  messages: z.array(message, { error: 'expected an array of messages' }).min(1, { error: 'expected at least one message' }),
  system: system.optional(),
  tools: z.array(tool, { error: 'expected an array of tools' }).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
  output_config: outputConfig.optional(),
  output_format: jsonOutputFormat,
  cache_control: cacheControl,
  // `fast` asks Anthropic for a faster tier; the served model runs at its own speed.
  speed: choice(['standard', 'fast']).nullish(),
  // Server-side edits of the conversation (clearing old tool results or thinking) to save
  // tokens: not applied, the conversation is sent as it is (Claude Code sends one).
  context_management: z
    .strictObject({ edits: z.array(z.looseObject({ type: text('an edit type') }), { error: 'expected an array of edits' }).optional() }, { error: 'expected an object' })
    .nullish(),
  mcp_servers: refused('MCP servers are connected by Anthropic\'s API, not by this gateway; call the MCP tools from the client as custom tools'),
  compaction: refused('server-side compaction is not served by this gateway; leave it out'),
  billing_policy: refused('Anthropic billing policies do not apply to this gateway; leave it out'),
  user_profile_id: refused('Anthropic user profiles do not apply to this gateway; leave it out'),
  workspace_id: refused('Anthropic workspaces do not apply to this gateway; the API key decides what a request may use'),
};

/** `POST /v1/messages`, the standard format of the `messages` operation. */
export const messagesRequestSchema = z.strictObject(
  {
    ...promptFields,
    max_tokens: positiveInteger,
    stream: flag.optional(),
    stop_sequences: z.array(text('a stop sequence'), { error: 'expected an array of strings' }).optional(),
    temperature: number(0, 1).optional(),
    top_p: number(0, 1).optional(),
    top_k: positiveInteger.optional(),
    metadata: z.strictObject({ user_id: text('a string').max(256, { error: 'expected at most 256 characters' }).nullish() }).optional(),
    service_tier: choice(['auto', 'standard_only']).optional(),
    diagnostics: z.looseObject({}, { error: 'expected an object' }).nullish(),
    container: refused('containers belong to Anthropic\'s code execution, which this gateway does not serve; leave it out'),
    inference_geo: refused('this gateway cannot choose where the model runs; leave inference_geo out'),
    fallbacks: refused('model fallbacks are the gateway\'s routing here, set by the operator; leave fallbacks out'),
    fallback_credit_token: refused('model fallbacks are the gateway\'s routing here, set by the operator; leave it out'),
    thread: refused('message threads are not served by this gateway; send the whole conversation in messages'),
  },
  { error: 'expected a JSON object' },
);

/** `POST /v1/messages/count_tokens`: the prompt of a create request, without what only the answer uses. */
export const messagesCountTokensRequestSchema = z.strictObject(promptFields, { error: 'expected a JSON object' });

/** A validated Messages request. */
export type MessagesRequest = z.output<typeof messagesRequestSchema>;
/** A validated count_tokens request. */
export type MessagesCountTokensRequest = z.output<typeof messagesCountTokensRequestSchema>;
/** One message of a Messages request. */
export type MessagesMessage = MessagesRequest['messages'][number];
/** One content block of a message. */
export type MessagesContentBlock = Exclude<MessagesMessage['content'], string>[number];
