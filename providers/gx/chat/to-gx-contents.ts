import { invalidRequest, jsonTooDeep, type ChatMessage } from '../../../core/index.js';
import { maxEmbeddedJsonDepth, parseEmbeddedJson } from '../../../core/kit/index.js';
import { textToGxParts, toGxMediaPart, type FetchedMediaMap, type GxRequestPart } from './gx-chat-media.js';

/** One native `contents` entry. */
export interface GxContent {
  role: 'user' | 'model';
  parts: GxRequestPart[];
}

/** The messages in native form: `contents`, and the system and developer messages as `systemInstruction`. */
interface GxConversation {
  contents: GxContent[];
  systemInstruction: { parts: { text: string }[] } | undefined;
}

// The documented stand-in for a signature the gateway never saw: 3-generation models answer
// 400 to a replayed functionCall without one (reference-gateway.md §4.4, upstreams.md §1.4
// "thoughtSignature"). A client that kept the answer's `reasoning_details` sends the real one.
const stubThoughtSignature = 'skip_thought_signature_validator';

/** The thought signatures an assistant message brings back: by the tool call they belong to, and the text's. */
interface ReturnedSignatures {
  calls: Map<string, string>;
  text: string | undefined;
}

/**
 * The signatures of `reasoning_details` the gx answer wrote (`reasoning.encrypted`, see
 * `readGxCandidateParts`): one naming a tool call of the message is that call's, one naming
 * none the text's (the last such, as the model signs the last part of a turn). Other kinds of
 * detail, which other gateways write, are not gx's and are left out.
 */
function returnedSignatures(message: ChatMessage): ReturnedSignatures {
  const returned: ReturnedSignatures = { calls: new Map(), text: undefined };
  const callIds = new Set((message.tool_calls ?? []).map((call) => call.id));
  for (const detail of message.reasoning_details ?? []) {
    if (detail.type !== 'reasoning.encrypted' || typeof detail.data !== 'string' || detail.data === '') continue;
    if (typeof detail.id === 'string' && callIds.has(detail.id)) returned.calls.set(detail.id, detail.data);
    else returned.text = detail.data;
  }
  return returned;
}

/** Text of a message whose parts may only be text (system, developer, tool). */
function plainText(message: ChatMessage, field: string): string[] {
  const content = message.content;
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [content];
  return content.map((part, index) => {
    if (part.type !== 'text' || part.text === undefined) {
      throw invalidRequest(`${field}.content[${index}]: ${message.role} messages may carry only text parts`, { param: `${field}.content[${index}]` });
    }
    return part.text;
  });
}

/** Parts of a user or assistant message's content: text (markdown images become inline images) and inline media. */
function contentParts(message: ChatMessage, field: string, media: FetchedMediaMap, remoteImages: boolean): GxRequestPart[] {
  const content = message.content;
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return textToGxParts(content, `${field}.content`, media, remoteImages);
  return content.flatMap((part, index) => {
    const partField = `${field}.content[${index}]`;
    if (part.type === 'image_url' || part.type === 'input_audio' || part.type === 'file') return [toGxMediaPart(part, partField, media)];
    if (part.type !== 'text') {
      throw invalidRequest(`${partField}.type: unsupported content part type "${part.type}"; use text, image_url, input_audio or file`, {
        param: `${partField}.type`,
      });
    }
    if (part.text === undefined) throw invalidRequest(`${partField}.text: required for a text part`, { param: `${partField}.text` });
    return textToGxParts(part.text, `${partField}.text`, media, remoteImages);
  });
}

function functionCallPart(toolCall: NonNullable<ChatMessage['tool_calls']>[number], field: string): GxRequestPart {
  const text = toolCall.function.arguments.trim();
  const param = `${field}.function.arguments`;
  let args: unknown = {};
  if (text !== '') {
    const parsed = parseEmbeddedJson(text);
    if (parsed.kind === 'invalid') throw invalidRequest(`${param}: invalid JSON in the arguments of function "${toolCall.function.name}"`, { param });
    if (parsed.kind === 'too-deep') throw jsonTooDeep(maxEmbeddedJsonDepth, param);
    args = parsed.value;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalidRequest(`${param}: expected a JSON object for function "${toolCall.function.name}"`, { param });
  }
  return { functionCall: { name: toolCall.function.name, args } };
}

/** A tool result as the native `functionResponse.response` object (reference-gateway.md §4.4). */
function toolResponse(text: string): Record<string, unknown> {
  // Text that is not JSON, or JSON nested too deeply to translate safely, is sent as text.
  const parsed = parseEmbeddedJson(text);
  if (parsed.kind === 'json' && Array.isArray(parsed.value)) return { result: parsed.value };
  if (parsed.kind === 'json' && typeof parsed.value === 'object' && parsed.value !== null) return parsed.value as Record<string, unknown>;
  return { content: text };
}

/**
 * Turns chat messages into native `contents` and `systemInstruction` (spec part 1 mapping
 * table, reference-gateway.md §4.3–§4.4):
 * - system and developer messages become `systemInstruction`, one text part each;
 * - assistant becomes `model`; its tool calls become `functionCall` parts after its text;
 *   the thought signatures its `reasoning_details` bring back go on the parts they came
 *   from (a call's on its `functionCall`, the text's on its last text part), and a first
 *   call without one carries the stub signature;
 * - tool and function messages become `functionResponse` parts, named by `name` or by the
 *   assistant tool call their `tool_call_id` answers, appended to the previous content when
 *   that is a user content, else opening one;
 * - messages that end up without parts are left out; same-role neighbours are not merged.
 * Markdown images with http(s) sources become inline images only in user messages:
 * assistant text often links images on the web that nobody asked to download.
 */
export function toGxContents(messages: readonly ChatMessage[], media: FetchedMediaMap): GxConversation {
  const contents: GxContent[] = [];
  const system: { text: string }[] = [];
  const toolNames = new Map<string, string>();

  messages.forEach((message, index) => {
    const field = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        for (const text of plainText(message, field)) system.push({ text });
        return;
      case 'user': {
        const parts = contentParts(message, field, media, true);
        if (parts.length > 0) contents.push({ role: 'user', parts });
        return;
      }
      case 'assistant': {
        const parts = contentParts(message, field, media, false);
        for (const part of parts) if ('inlineData' in part) part.thoughtSignature = stubThoughtSignature;
        const signatures = returnedSignatures(message);
        if (signatures.text !== undefined) {
          // A signature of the text goes back on the text (the last part the model signed); without any text it has no part to ride on.
          const lastText = parts.findLast((part) => typeof part.text === 'string');
          if (lastText !== undefined) lastText.thoughtSignature = signatures.text;
        }
        (message.tool_calls ?? []).forEach((toolCall, callIndex) => {
          toolNames.set(toolCall.id, toolCall.function.name);
          const part = functionCallPart(toolCall, `${field}.tool_calls[${callIndex}]`);
          const signature = signatures.calls.get(toolCall.id) ?? (callIndex === 0 ? stubThoughtSignature : undefined);
          if (signature !== undefined) part.thoughtSignature = signature;
          parts.push(part);
        });
        if (parts.length > 0) contents.push({ role: 'model', parts });
        return;
      }
      case 'tool':
      case 'function': {
        const name = message.name ?? (message.tool_call_id === undefined ? undefined : toolNames.get(message.tool_call_id));
        if (name === undefined) {
          throw invalidRequest(`${field}: set name, or a tool_call_id that an earlier assistant tool call used`, { param: `${field}.tool_call_id` });
        }
        const part = { functionResponse: { name, response: toolResponse(plainText(message, field).join('')) } };
        const previous = contents.at(-1);
        if (previous?.role === 'user') previous.parts.push(part);
        else contents.push({ role: 'user', parts: [part] });
        return;
      }
    }
  });

  if (contents.length === 0) {
    throw invalidRequest('messages: expected at least one user, assistant or tool message besides system messages', { param: 'messages' });
  }
  return { contents, systemInstruction: system.length > 0 ? { parts: system } : undefined };
}
