import { invalidRequest, type ChatCompletionRequest, type MessagesRequest, type TranslationContext } from '../../core/index.js';
import { quoted } from '../../core/kit/index.js';
import { toChatMessages } from './to-chat-messages.js';

type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];

/**
 * Custom tools as chat functions: `input_schema` is the parameters schema; cache breakpoints and
 * streaming hints are left out, and so are deferred tools (`defer_loading`), which the model
 * does not see until a tool search loads them.
 */
function toChatTools(tools: NonNullable<MessagesRequest['tools']>): ChatTool[] {
  return tools.filter((tool) => tool.defer_loading !== true).map((tool) => {
    const declaration: ChatTool['function'] = { name: tool.name, parameters: tool.input_schema };
    if (tool.description !== undefined && tool.description !== '') declaration.description = tool.description;
    if (tool.strict === true) declaration.strict = true;
    return { type: 'function', function: declaration };
  });
}

/**
 * `tool_choice` in chat terms: `auto`, `none`, `any` as `required`, `tool` as the named
 * function; `disable_parallel_tool_use` as `parallel_tool_calls: false` (a family that cannot
 * hold a model to one call, such as gx, reads nothing there). Without tools there is nothing
 * to choose: `auto` and `none` are then left out, `any` and `tool` are a 400.
 */
function addToolChoice(chat: ChatCompletionRequest, request: MessagesRequest): void {
  const choice = request.tool_choice;
  const tools = chat.tools ?? [];
  if (choice === undefined) return;
  if (tools.length === 0) {
    if (choice.type === 'auto' || choice.type === 'none') return;
    throw invalidRequest(`tool_choice: "${choice.type}" needs tools; declare them in tools or leave tool_choice out`, { param: 'tool_choice' });
  }
  if (choice.type === 'tool') {
    if (!tools.some((tool) => tool.function.name === choice.name)) {
      throw invalidRequest(`tool_choice.name: ${quoted(choice.name)} is not one of the tools`, { param: 'tool_choice.name' });
    }
    chat.tool_choice = { type: 'function', function: { name: choice.name } };
  } else {
    chat.tool_choice = choice.type === 'any' ? 'required' : choice.type;
  }
  if (choice.type !== 'none' && choice.disable_parallel_tool_use === true) chat.parallel_tool_calls = false;
}

const efforts = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' } as const;

/**
 * Thinking in the two controls the chat format has, each read by the families it concerns
 * (docs/routes.md): `output_config.effort` becomes `reasoning_effort` (`xhigh` and `max` as
 * `high`, the most chat says), which every family reads; `extra_body.gx.thinking_config`
 * carries what only a budget-and-thoughts family can be told: the exact budget of `enabled`,
 * and whether to return the thoughts (`adaptive` and `between_tools` at the model's own
 * budget; `display: "omitted"` thinks without returning them). Sent only when it says more
 * than the effort, because gx reads it instead of `reasoning_effort`. `disabled` sends
 * nothing, so the model's default holds.
 */
function addThinking(chat: ChatCompletionRequest, request: MessagesRequest): void {
  const effort = request.output_config?.effort;
  if (effort !== undefined && effort !== null) chat.reasoning_effort = efforts[effort];
  const thinking = request.thinking;
  if (thinking === undefined || thinking.type === 'disabled') return;
  const includeThoughts = !('display' in thinking) || thinking.display !== 'omitted';
  if (thinking.type === 'enabled') chat.extra_body = { gx: { thinking_config: { thinking_budget: thinking.budget_tokens, include_thoughts: includeThoughts } } };
  else if (includeThoughts) chat.extra_body = { gx: { thinking_config: { include_thoughts: true } } };
}

/** Structured output (`output_config.format`, or the beta `output_format`) as a chat `json_schema` response format. */
function addOutputFormat(chat: ChatCompletionRequest, request: MessagesRequest): void {
  const format = request.output_config?.format ?? request.output_format;
  if (format === undefined || format === null) return;
  // The chat format wants a name for the schema; the Messages format has none to give.
  chat.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema, strict: true } };
}

/**
 * The chat completion request for a Messages request (docs/routes.md, "Messages on every
 * family"): the conversation, `max_tokens` as `max_completion_tokens` (the name every OpenAI
 * model takes), sampling as it is (`top_k` too, which the chat format of gx reads),
 * `stop_sequences` as `stop`, tools, tool choice, thinking and structured output. A stream asks
 * for usage in its last chunk. `metadata`, `service_tier`, `speed`, `diagnostics` and
 * `cache_control` change nothing the served model can be asked for and are not sent.
 * @throws GatewayError 400 naming the client's field, for what the chat format cannot say.
 */
export function toChatRequest(request: MessagesRequest, context: TranslationContext): ChatCompletionRequest {
  const chat: ChatCompletionRequest = { model: request.model, messages: toChatMessages(request), max_completion_tokens: request.max_tokens };
  if (context.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (request.stop_sequences !== undefined && request.stop_sequences.length > 0) chat.stop = request.stop_sequences;
  const tools = toChatTools(request.tools ?? []);
  if (tools.length > 0) chat.tools = tools;
  addToolChoice(chat, request);
  addThinking(chat, request);
  addOutputFormat(chat, request);
  return chat;
}
