import { invalidRequest, type ChatCompletionRequest, type ResponsesRequest, type ResponsesTool } from '../../core/index.js';
import { parseEmbeddedJson } from '../../core/kit/index.js';
import { refuseUnknownFields } from './refuse-unknown-fields.js';

type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];
type ChatToolChoice = ChatCompletionRequest['tool_choice'];
type FunctionTool = Extract<ResponsesTool, { type: 'function' }>;
type CustomTool = Extract<ResponsesTool, { type: 'custom' }>;
type NamespaceTool = Extract<ResponsesTool, { type: 'namespace' }>;

/** The chat request's tool fields. */
export interface ChatToolFields {
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
}

/** A tool of the request as the chat side names it, and how its calls come back. */
export interface DeclaredTool {
  /** The function name the chat side sees. */
  chatName: string;
  /** The tool's own name. */
  name: string;
  /** The namespace tool it belongs to, if any: its calls carry it. */
  namespace?: string;
  /** A custom (freeform) tool: its calls come back as `custom_tool_call` with `input`. */
  custom: boolean;
  chat: ChatTool;
}

/**
 * The one parameter a custom (freeform) tool becomes on the chat side. Chat tools take JSON
 * arguments only, so Codex's `apply_patch` and its kin are declared as a function of one
 * string, `input`, and the call comes back as a `custom_tool_call` with that string.
 */
export const customToolParameter = 'input';

/**
 * Tools that search the web for the model, run by the upstream: not offered on a chat family,
 * which has none, as a model without search answers from what it knows. Codex CLI offers one
 * on every request (recorded: test/fixtures/agents/codex), so refusing it would refuse Codex.
 */
const webSearchTools = new Set(['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']);

/** The chat name of a tool in a namespace; chat names have no `.`, and `__` keeps the two readable. */
export const namespacedName = (namespace: string, name: string) => `${namespace}__${name}`;

const servedOnlyNatively = (field: string, what: string) =>
  invalidRequest(`${field}: ${what} cannot be served on this model, whose family speaks chat completions; remove it, or call a model that serves Responses natively`, {
    param: field,
  });

/** What the model is told of a custom tool's input: free text, or text in the tool's grammar. */
function customInputDescription(format: CustomTool['format']): string {
  if (format?.type === 'grammar') return `The input as raw text (not JSON) in this ${format.syntax} grammar:\n${format.definition}`;
  return 'The input as raw free-form text (not JSON).';
}

function functionDefinition(tool: FunctionTool, chatName: string, field: string): ChatTool {
  refuseUnknownFields(tool, ['type', 'name', 'description', 'parameters', 'strict'], field);
  const definition: ChatTool['function'] = { name: chatName };
  if (typeof tool.description === 'string') definition.description = tool.description;
  if (tool.parameters !== undefined && tool.parameters !== null) definition.parameters = tool.parameters;
  if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
  return { type: 'function', function: definition };
}

function customDefinition(tool: CustomTool, chatName: string, field: string): ChatTool {
  refuseUnknownFields(tool, ['type', 'name', 'description', 'format'], field);
  const definition: ChatTool['function'] = {
    name: chatName,
    parameters: {
      type: 'object',
      properties: { [customToolParameter]: { type: 'string', description: customInputDescription(tool.format) } },
      required: [customToolParameter],
      additionalProperties: false,
    },
  };
  if (typeof tool.description === 'string') definition.description = tool.description;
  return { type: 'function', function: definition };
}

function declare(tool: FunctionTool | CustomTool, field: string, namespace?: string): DeclaredTool {
  const chatName = namespace === undefined ? tool.name : namespacedName(namespace, tool.name);
  if (chatName.length > 64) throw invalidRequest(`${field}.name: the namespace and name together make "${chatName}", longer than the 64 characters a chat function name may have; shorten them`, { param: `${field}.name` });
  const custom = tool.type === 'custom';
  const chat = custom ? customDefinition(tool as CustomTool, chatName, field) : functionDefinition(tool as FunctionTool, chatName, field);
  return namespace === undefined ? { chatName, name: tool.name, custom, chat } : { chatName, name: tool.name, namespace, custom, chat };
}

/**
 * The request's tools as the chat side declares them, in order: function tools as they are,
 * custom tools as functions of one string (see {@link customToolParameter}), the tools of a
 * namespace each as `<namespace>__<name>`. Web search tools are left out (see
 * {@link webSearchTools}); any other tool the upstream runs or whose calls are items of their
 * own (file search, code interpreter, MCP, image generation, shell, computer use, apply_patch)
 * is a 400 naming it: the answer depends on it and no chat family can give one.
 */
export function declaredTools(request: Pick<ResponsesRequest, 'tools'>): DeclaredTool[] {
  const declared: DeclaredTool[] = [];
  (request.tools ?? []).forEach((tool, index) => {
    const field = `tools[${index}]`;
    if (tool.type === 'function' || tool.type === 'custom') declared.push(declare(tool as FunctionTool | CustomTool, field));
    else if (tool.type === 'namespace') {
      const group = tool as NamespaceTool;
      refuseUnknownFields(group, ['type', 'name', 'description', 'tools'], field);
      group.tools.forEach((member, memberIndex) => declared.push(declare(member, `${field}.tools[${memberIndex}]`, group.name)));
    } else if (!webSearchTools.has(tool.type)) throw servedOnlyNatively(`${field}.type`, `a "${tool.type}" tool`);
  });
  const seen = new Set<string>();
  for (const tool of declared) {
    if (seen.has(tool.chatName)) throw invalidRequest(`tools: two tools are both named "${tool.chatName}" on the chat side; rename one`, { param: 'tools' });
    seen.add(tool.chatName);
  }
  return declared;
}

/**
 * A custom tool call's input from the chat call's arguments: the `input` string of
 * {@link customToolParameter}. Arguments the model wrote in another shape (not JSON, or
 * without that string) are passed on as they are, so nothing it said is lost.
 */
export function customToolInput(callArguments: string): string {
  const parsed = parseEmbeddedJson(callArguments);
  if (parsed.kind !== 'json' || typeof parsed.value !== 'object' || parsed.value === null) return callArguments;
  const input = (parsed.value as Record<string, unknown>)[customToolParameter];
  return typeof input === 'string' ? input : callArguments;
}

/** The declared tool that `tool_choice` (or an `allowed_tools` entry) names, or a 400 naming `field`. */
function chosen(declared: readonly DeclaredTool[], entry: { type: string; name?: unknown }, field: string): DeclaredTool {
  const custom = entry.type === 'custom';
  const found = (entry.type === 'function' || custom) && typeof entry.name === 'string' ? declared.find((tool) => tool.custom === custom && tool.chatName === entry.name) : undefined;
  if (found === undefined) throw invalidRequest(`${field}: expected {"type": "function" or "custom", "name"} naming one of the tools in tools`, { param: field });
  return found;
}

/**
 * `tools`, `tool_choice` and `parallel_tool_calls` in chat form (the tools of
 * {@link declaredTools}). A forced function or custom tool becomes the chat's named function;
 * `allowed_tools` becomes the chat's mode with only the allowed tools declared, which is what
 * it means; forcing a hosted tool is a 400. With no tool left to offer (a request whose only
 * tools are web search), `auto` and `none` are left out and `required` is a 400 naming
 * `tool_choice`. `parallel_tool_calls` goes along with the tools.
 */
export function toChatTools(request: ResponsesRequest, declared: readonly DeclaredTool[]): ChatToolFields {
  let offered = declared;
  let toolChoice: ChatToolChoice;
  const choice = request.tool_choice;
  if (typeof choice === 'string') toolChoice = choice;
  else if (choice !== undefined && choice !== null) {
    if (choice.type === 'function' || choice.type === 'custom') {
      toolChoice = { type: 'function', function: { name: chosen(declared, choice, 'tool_choice.name').chatName } };
    } else if (choice.type === 'allowed_tools' && 'tools' in choice && Array.isArray(choice.tools)) {
      const allowed = new Set(choice.tools.map((entry, index) => chosen(declared, entry, `tool_choice.tools[${index}]`).chatName));
      offered = declared.filter((tool) => allowed.has(tool.chatName));
      toolChoice = choice.mode === 'required' ? 'required' : 'auto';
    } else {
      throw servedOnlyNatively('tool_choice.type', `forcing a "${choice.type}" tool`);
    }
  }

  const result: ChatToolFields = {};
  if (offered.length > 0) result.tools = offered.map((tool) => tool.chat);
  if (toolChoice === 'required' && offered.length === 0) {
    // Only hosted tools were offered (Codex's web search), and they are left out: nothing is left to call.
    throw invalidRequest('tool_choice: "required" needs a tool the model can call, and this request has none this model serves (web search is not offered on a family that speaks chat completions); declare a function tool, or send tool_choice "auto"', {
      param: 'tool_choice',
    });
  }
  // A mode without tools says nothing, and chat APIs refuse it (OpenAI's does): it goes only with tools.
  if (toolChoice !== undefined && (result.tools !== undefined || typeof toolChoice !== 'string')) result.tool_choice = toolChoice;
  // Chat APIs refuse parallel_tool_calls without tools (OpenAI's does), and it means nothing there.
  if (result.tools !== undefined && typeof request.parallel_tool_calls === 'boolean') result.parallel_tool_calls = request.parallel_tool_calls;
  return result;
}
