import { invalidRequest, responseIdOfItem, type ChatMessage, type ResponsesContentPart, type ResponsesInputItem, type ResponsesRequest, type ResponsesToolOutput } from '../../core/index.js';
import { chatReasoningDetails } from '../shared/chat-answer.js';
import { customToolParameter, namespacedName } from './to-chat-tools.js';

type ChatContentPart = Exclude<ChatMessage['content'], string | null | undefined>[number];
type ChatToolCall = NonNullable<ChatMessage['tool_calls']>[number];
type MessageItem = Extract<ResponsesInputItem, { role: 'user' | 'assistant' | 'system' | 'developer' }>;

const refused = (field: string, problem: string) => invalidRequest(`${field}: ${problem}`, { param: field });

/** A user, system or developer message's part as a chat content part. */
function toChatPart(part: ResponsesContentPart, field: string, role: string): ChatContentPart {
  if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: String(part.text) };
  if (role !== 'user') throw refused(`${field}.type`, `a ${role} message carries only text on this model; move the "${part.type}" part into a user message`);
  if (part.type === 'input_image') {
    if (typeof part.image_url !== 'string') throw refused(`${field}.file_id`, 'file ids cannot be served on this model, whose family speaks chat completions; send the image as image_url (a URL or a data URI)');
    const imageUrl: { url: string; detail?: string } = { url: part.image_url };
    if (typeof part.detail === 'string') imageUrl.detail = part.detail;
    return { type: 'image_url', image_url: imageUrl };
  }
  if (part.type === 'input_file') {
    const file: NonNullable<ChatContentPart['file']> = {};
    if (typeof part.file_data === 'string') file.file_data = part.file_data;
    if (typeof part.file_id === 'string') file.file_id = part.file_id;
    if (typeof part.filename === 'string') file.filename = part.filename;
    if (typeof part.file_url === 'string') file.url = part.file_url;
    return { type: 'file', file };
  }
  if (part.type === 'refusal') return { type: 'text', text: String(part.refusal) };
  throw refused(`${field}.type`, `content parts of type "${part.type}" cannot be served on this model; use input_text, input_image or input_file`);
}

/** An assistant message's content as chat text: the chat side takes only text back from the assistant. */
function assistantText(content: string | ResponsesContentPart[], field: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      if (part.type === 'output_text' || part.type === 'input_text') return String(part.text);
      if (part.type === 'refusal') return String(part.refusal);
      throw refused(`${field}.content[${index}].type`, `an assistant message carries only output_text or refusal parts on this model, not "${part.type}"`);
    })
    .join('');
}

/** A tool's output as chat tool content: text, or text parts; the chat side has no images or files there. */
function toolContent(output: ResponsesToolOutput, field: string): ChatMessage['content'] {
  if (typeof output === 'string') return output;
  return output.map((part, index) => {
    if (part.type !== 'input_text') throw refused(`${field}.output[${index}].type`, `a tool output carries only input_text parts on this model, not "${part.type}"; describe the result in text`);
    return { type: 'text', text: part.text };
  });
}

/** A call item's tool as the chat side names it (see `declaredTools`). */
const chatNameOf = (item: Record<string, unknown>) => (typeof item.namespace === 'string' ? namespacedName(item.namespace, String(item.name)) : String(item.name));

/** Fields of an item that change what it means and that the chat side cannot carry. */
function refuseItemExtras(item: Record<string, unknown>, field: string): void {
  const caller = item.caller;
  if (caller !== undefined && caller !== null && (caller as { type?: unknown }).type !== 'direct') {
    throw refused(`${field}.caller`, 'programmatic tool calls cannot be served on this model; remove the caller');
  }
}

/**
 * The request's `instructions` and `input` as chat messages:
 * - `instructions` first, as a system message (the role every chat family takes);
 * - a string input, or a bare content part, is a user message; messages keep their role,
 *   their text, images (`image_url`) and files (`file`) becoming chat content parts;
 * - `function_call` and `custom_tool_call` items become `tool_calls` of an assistant
 *   message, with their `call_id` as the call id (a custom tool's input as the JSON
 *   arguments `{"input": ...}`, a namespaced tool by its chat name); consecutive calls, and calls right after an assistant
 *   message, share that message, as parallel calls do in chat;
 * - `function_call_output` and `custom_tool_call_output` items become tool messages
 *   answering their `call_id`, which an earlier call of the input must have;
 * - a `reasoning` item's summary becomes the `reasoning_content` of the assistant message
 *   after it (chat families that take thoughts back read it there; others ignore it); the
 *   `encrypted_content` of a reasoning item the gateway wrote (its id has the gateway's
 *   shape, `rs_<request id>_<index>`) is a family's signature, which goes back in the chat
 *   `reasoning_details` of the call right after it, else of the assistant text around it,
 *   as `fromChatCompletion` and the stream placed it; another vendor's encrypted reasoning
 *   (OpenAI's own ids) only lets that vendor resume its own thinking and is left out;
 * - `item_reference`s must have been resolved before (the conversation store does it);
 *   anything else is a 400 naming the item.
 */
export function toChatMessages(request: Pick<ResponsesRequest, 'instructions' | 'input'>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof request.instructions === 'string' && request.instructions !== '') messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') {
    messages.push({ role: 'user', content: request.input });
    return messages;
  }

  const calls = new Set<string>();
  let reasoning: string | undefined;
  /** The signature of the last reasoning item the gateway wrote, until the item it belongs to comes. */
  let signature: string | undefined;
  /** The assistant message the next call joins, if the last message is one that may take calls. */
  let openAssistant: ChatMessage | undefined;
  const assistant = (): ChatMessage => {
    if (openAssistant === undefined) {
      openAssistant = { role: 'assistant', content: null };
      messages.push(openAssistant);
    }
    if (reasoning !== undefined) {
      openAssistant.reasoning_content = (openAssistant.reasoning_content ?? '') + reasoning;
      reasoning = undefined;
    }
    return openAssistant;
  };
  /** The pending signature on `message`, for the call `callId`, or for its text. */
  const settleSignature = (message: ChatMessage, callId?: string) => {
    if (signature === undefined) return;
    message.reasoning_details = [...(message.reasoning_details ?? []), ...chatReasoningDetails([{ data: signature, id: callId }])];
    signature = undefined;
  };
  const addCall = (call: ChatToolCall) => {
    calls.add(call.id);
    const message = assistant();
    message.tool_calls = [...(message.tool_calls ?? []), call];
    settleSignature(message, call.id);
  };
  const close = (message: ChatMessage) => {
    // A signature after the assistant's text and before anything else is that text's (a stream ends so).
    if (openAssistant !== undefined) settleSignature(openAssistant);
    openAssistant = undefined;
    reasoning = undefined;
    signature = undefined;
    messages.push(message);
  };

  request.input.forEach((item: ResponsesInputItem, index) => {
    const field = `input[${index}]`;
    const fields = item as Record<string, unknown>;
    switch (item.type) {
      case undefined:
      case 'message': {
        const message = item as MessageItem;
        if (message.role === 'assistant') {
          if (openAssistant !== undefined) settleSignature(openAssistant);
          openAssistant = undefined;
          const opened = assistant();
          opened.content = assistantText(message.content, field);
          settleSignature(opened);
          return;
        }
        const content =
          typeof message.content === 'string' ? message.content : message.content.map((part, partIndex) => toChatPart(part, `${field}.content[${partIndex}]`, message.role));
        close({ role: message.role, content });
        return;
      }
      case 'input_text':
      case 'input_image':
      case 'input_file':
        close({ role: 'user', content: [toChatPart(item as ResponsesContentPart, field, 'user')] });
        return;
      case 'function_call':
        refuseItemExtras(fields, field);
        addCall({ id: String(fields.call_id), type: 'function', function: { name: chatNameOf(fields), arguments: String(fields.arguments) } });
        return;
      case 'custom_tool_call':
        refuseItemExtras(fields, field);
        addCall({ id: String(fields.call_id), type: 'function', function: { name: chatNameOf(fields), arguments: JSON.stringify({ [customToolParameter]: String(fields.input) }) } });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        refuseItemExtras(fields, field);
        const callId = String(fields.call_id);
        if (!calls.has(callId)) {
          throw refused(`${field}.call_id`, `no call with call_id "${callId}" comes before this output; send the call too, or continue with previous_response_id`);
        }
        close({ role: 'tool', tool_call_id: callId, content: toolContent(fields.output as ResponsesToolOutput, field) });
        return;
      }
      case 'reasoning': {
        const summary = (fields.summary as { text: string }[]).map((part) => part.text).join('\n\n');
        if (summary !== '') reasoning = (reasoning === undefined ? '' : `${reasoning}\n\n`) + summary;
        // Only what the gateway wrote carries a family's signature; another vendor's encrypted reasoning is not one.
        const encrypted = fields.encrypted_content;
        if (typeof encrypted === 'string' && encrypted !== '' && typeof fields.id === 'string' && responseIdOfItem(fields.id) !== undefined) {
          if (openAssistant !== undefined) settleSignature(openAssistant);
          signature = encrypted;
        }
        return;
      }
      case 'item_reference':
        throw refused(`${field}.id`, `no stored item "${String(fields.id)}" was found to stand in for this reference; send the item itself`);
      default:
        throw refused(`${field}.type`, `"${item.type}" items cannot be served on this model, whose family speaks chat completions; send messages, function calls and their outputs`);
    }
  });
  return messages;
}
