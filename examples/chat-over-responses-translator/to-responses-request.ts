// A chat completions request as a Responses request: each message an input item, in order
// (tool calls and their results as function_call and function_call_output items, so call ids
// survive the round trip), the sampling and tool settings under their Responses names. What
// Responses cannot say (a stop sequence, several choices, penalties) is refused with a 400
// naming the chat field, rather than dropped: the client would otherwise get an answer to
// another question than the one it asked.
import { invalidRequest, type ChatCompletionRequest, type ChatMessage, type ResponsesRequest, type TranslationContext } from 'model-gateway';

type ContentPart = Exclude<ChatMessage['content'], string | null | undefined>[number];

/** Chat fields Responses has no word for, each refused when set to anything but its neutral value. */
const unsayable: Array<[keyof ChatCompletionRequest, (value: unknown) => boolean, string]> = [
  ['stop', (value) => value !== undefined && value !== null, 'the Responses API has no stop sequences; stop the answer on the client instead'],
  ['n', (value) => typeof value === 'number' && value > 1, 'the Responses API answers one choice; send several requests instead'],
  ['frequency_penalty', (value) => typeof value === 'number' && value !== 0, 'the Responses API has no frequency penalty; leave it out'],
  ['presence_penalty', (value) => typeof value === 'number' && value !== 0, 'the Responses API has no presence penalty; leave it out'],
  ['seed', (value) => value !== undefined && value !== null, 'the Responses API takes no seed; leave it out'],
  ['top_k', (value) => value !== undefined && value !== null, 'the Responses API takes no top_k; leave it out'],
  ['logprobs', (value) => value === true, 'this translation carries no log probabilities; leave logprobs out'],
  ['audio', (value) => value !== undefined && value !== null, 'the Responses API answers no audio; leave audio out'],
  ['extra_body', (value) => value !== undefined && value !== null, 'extra_body holds another family\'s native fields, which a Responses model does not read'],
];

/** One content part of a chat message as a Responses input part. */
function inputPart(part: ContentPart, field: string): Record<string, unknown> {
  if (part.type === 'text') return { type: 'input_text', text: part.text ?? '' };
  if (part.type === 'image_url' && part.image_url !== undefined) {
    const image = typeof part.image_url === 'string' ? { url: part.image_url } : part.image_url;
    return { type: 'input_image', image_url: image.url, ...(image.detail === undefined ? {} : { detail: image.detail }) };
  }
  if (part.type === 'file' && part.file !== undefined) {
    const { file_data, file_id, filename, url } = part.file;
    return { type: 'input_file', ...(file_data === undefined ? {} : { file_data }), ...(file_id === undefined ? {} : { file_id }), ...(url === undefined ? {} : { file_url: url }), ...(filename === undefined ? {} : { filename }) };
  }
  throw invalidRequest(`${field}: a ${JSON.stringify(part.type)} part has no Responses input form here; send text, image_url or file parts`, { param: field });
}

/** The text of a message whose content the Responses side takes as text only (an assistant turn, a tool's result). */
function textOf(content: ChatMessage['content'], field: string): string {
  if (typeof content === 'string' || content === null || content === undefined) return content ?? '';
  return content
    .map((part, index) => {
      if (part.type !== 'text') throw invalidRequest(`${field}[${index}]: only text parts can be said here`, { param: `${field}[${index}]` });
      return part.text ?? '';
    })
    .join('');
}

/** The input items of one chat message. */
function inputItems(message: ChatMessage, index: number): Array<Record<string, unknown>> {
  const field = `messages[${index}]`;
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user': {
      const content = typeof message.content === 'string' ? message.content : (message.content ?? []).map((part, partIndex) => inputPart(part, `${field}.content[${partIndex}]`));
      return [{ type: 'message', role: message.role, content }];
    }
    case 'assistant': {
      // `reasoning_content`, which some chat families send back, has no Responses item to go
      // in (a reasoning item needs the upstream's own id): the model reasons again.
      const text = textOf(message.content, `${field}.content`);
      const items: Array<Record<string, unknown>> = text === '' ? [] : [{ type: 'message', role: 'assistant', content: text }];
      for (const call of message.tool_calls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      return items;
    }
    case 'tool':
      if (message.tool_call_id === undefined) throw invalidRequest(`${field}.tool_call_id: a tool message names the call it answers`, { param: `${field}.tool_call_id` });
      return [{ type: 'function_call_output', call_id: message.tool_call_id, output: textOf(message.content, `${field}.content`) }];
    default:
      throw invalidRequest(`${field}.role: "${message.role}" messages are the deprecated function-calling form; send tool_calls and tool messages`, { param: `${field}.role` });
  }
}

/** The Responses `text.format` of a chat `response_format`. */
function textFormat(format: NonNullable<ChatCompletionRequest['response_format']>): NonNullable<ResponsesRequest['text']>['format'] {
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    const schema = format.json_schema;
    return { type: 'json_schema', name: typeof schema?.name === 'string' ? schema.name : 'response', schema: (schema?.schema ?? {}) as Record<string, unknown>, ...(schema?.strict === undefined || schema.strict === null ? {} : { strict: schema.strict }) };
  }
  return undefined;
}

/** The Responses request for a chat completions request. */
export function toResponsesRequest(request: ChatCompletionRequest, context: TranslationContext): ResponsesRequest {
  for (const [field, isSet, instead] of unsayable) if (isSet(request[field])) throw invalidRequest(`${field}: ${instead}`, { param: field });
  if (request.reasoning_effort === 'minimal') throw invalidRequest('reasoning_effort: the Responses API here takes none, low, medium or high', { param: 'reasoning_effort' });
  const maxOutputTokens = request.max_completion_tokens ?? request.max_tokens;
  const format = request.response_format === undefined || request.response_format === null ? undefined : textFormat(request.response_format);
  const toolChoice = request.tool_choice;
  return {
    model: request.model,
    input: request.messages.flatMap(inputItems) as ResponsesRequest['input'],
    // Chat completions keep nothing between requests; a stored response would outlive what the client asked for.
    store: false,
    ...(context.stream ? { stream: true } : {}),
    ...(maxOutputTokens === undefined || maxOutputTokens === null ? {} : { max_output_tokens: maxOutputTokens }),
    ...(request.temperature === undefined || request.temperature === null ? {} : { temperature: request.temperature }),
    ...(request.top_p === undefined || request.top_p === null ? {} : { top_p: request.top_p }),
    ...(request.reasoning_effort === undefined || request.reasoning_effort === null ? {} : { reasoning: { effort: request.reasoning_effort } }),
    ...(format === undefined ? {} : { text: { format } }),
    ...(request.tools === undefined || request.tools === null
      ? {}
      : {
          tools: request.tools.map(({ function: tool }) => ({
            type: 'function' as const,
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
            ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
          })),
        }),
    ...(toolChoice === undefined || toolChoice === null ? {} : { tool_choice: typeof toolChoice === 'string' ? toolChoice : { type: 'function' as const, name: toolChoice.function.name } }),
    ...(typeof request.parallel_tool_calls === 'boolean' ? { parallel_tool_calls: request.parallel_tool_calls } : {}),
    ...(typeof request.user === 'string' ? { user: request.user } : {}),
  };
}
