import { type ChatMessage, type NativeGenerateRequest } from '../../core/index.js';
import { fieldError, isRecord } from '../../core/kit/index.js';
import { NativeFunctionCalls } from './native-function-calls.js';

type ChatContentPart = Extract<NonNullable<ChatMessage['content']>, unknown[]>[number];
type ChatToolCall = NonNullable<ChatMessage['tool_calls']>[number];
type NativePart = Record<string, unknown>;

const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A part's text, unless it is a thought: earlier reasoning, which chat completions do not take back. */
const answerText = (part: NativePart): string | undefined => (part.thought === true ? undefined : string(part.text));

const audioFormats: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mp3': 'mp3', 'audio/mpeg': 'mp3' };

/**
 * A user part's media as a chat content part: an inline image as an `image_url` data URI,
 * inline WAV or MP3 audio as `input_audio`, any other inline data as a `file` data URI (its
 * `displayName` as the filename); a `fileData` image as an `image_url` by its URI. Chat
 * completions take other files by content only, so a `fileData` of another type is a 400.
 */
function mediaPart(part: NativePart, field: string): ChatContentPart {
  if (isRecord(part.inlineData)) {
    const mimeType = string(part.inlineData.mimeType);
    const data = string(part.inlineData.data);
    if (mimeType === undefined) throw fieldError(`${field}.inlineData.mimeType`, 'required: the media type, such as "image/png"');
    if (data === undefined) throw fieldError(`${field}.inlineData.data`, 'required: the base64 bytes');
    const type = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
    const dataUri = `data:${type};base64,${data}`;
    if (type.startsWith('image/')) return { type: 'image_url', image_url: { url: dataUri } };
    const format = audioFormats[type];
    if (format !== undefined) return { type: 'input_audio', input_audio: { data, format } };
    const filename = string(part.inlineData.displayName);
    return { type: 'file', file: filename === undefined ? { file_data: dataUri } : { file_data: dataUri, filename } };
  }
  const fileData = part.fileData as Record<string, unknown>;
  const uri = string(fileData.fileUri);
  if (uri === undefined) throw fieldError(`${field}.fileData.fileUri`, 'required: the address of the file');
  if (!(string(fileData.mimeType) ?? '').toLowerCase().startsWith('image/')) {
    throw fieldError(`${field}.fileData`, 'chat completions take only images by address; send this file as inlineData (its base64 bytes) instead');
  }
  return { type: 'image_url', image_url: { url: uri } };
}

const unsupportedPart = (field: string) =>
  fieldError(field, 'this part cannot be translated to chat completions; parts may be text, inlineData, fileData (images), functionCall (model turns) or functionResponse (user turns)');

/** A model turn as one assistant message: its text parts joined, its function calls as tool calls. Empty (thoughts only) gives none. */
function modelTurn(parts: readonly NativePart[], index: number, calls: NativeFunctionCalls): ChatMessage[] {
  calls.startModelTurn();
  let text = '';
  const toolCalls: ChatToolCall[] = [];
  parts.forEach((part, position) => {
    const field = `contents[${index}].parts[${position}]`;
    if (isRecord(part.functionCall)) {
      const name = string(part.functionCall.name);
      if (name === undefined || name === '') throw fieldError(`${field}.functionCall.name`, 'required: the name of the function called');
      const args = part.functionCall.args ?? {};
      const id = calls.call(name, part.functionCall.id, index, position);
      toolCalls.push({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
    } else if (typeof part.text === 'string') text += answerText(part) ?? '';
    else throw unsupportedPart(field);
  });
  if (text === '' && toolCalls.length === 0) return [];
  return [toolCalls.length === 0 ? { role: 'assistant', content: text } : { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }];
}

/**
 * A user turn: its function responses as tool messages first (chat completions want them
 * right after the assistant message that called), then one user message with the rest, the
 * media a response carries in `functionResponse.parts` included. A response's `response`
 * object is the tool message's content as JSON.
 */
function userTurn(parts: readonly NativePart[], index: number, calls: NativeFunctionCalls): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const content: ChatContentPart[] = [];
  const userPart = (part: NativePart, field: string) => {
    if (typeof part.text === 'string') {
      const text = answerText(part);
      if (text !== undefined && text !== '') content.push({ type: 'text', text });
    } else if (isRecord(part.inlineData) || isRecord(part.fileData)) content.push(mediaPart(part, field));
    else throw unsupportedPart(field);
  };
  parts.forEach((part, position) => {
    const field = `contents[${index}].parts[${position}]`;
    if (!isRecord(part.functionResponse)) return userPart(part, field);
    const response = part.functionResponse;
    const name = string(response.name);
    if (name === undefined || name === '') throw fieldError(`${field}.functionResponse.name`, 'required: the name of the function that answered');
    const id = calls.response(name, response.id, `${field}.functionResponse`);
    tools.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(response.response ?? {}) });
    if (Array.isArray(response.parts)) response.parts.forEach((nested, nestedIndex) => userPart(isRecord(nested) ? nested : {}, `${field}.functionResponse.parts[${nestedIndex}]`));
  });
  if (content.length === 0) return tools;
  const only = content.length === 1 ? content[0] : undefined;
  return [...tools, { role: 'user', content: only?.type === 'text' && only.text !== undefined ? only.text : content }];
}

/** `systemInstruction` as one system message, its text parts joined by line breaks. */
function systemMessage(instruction: NativeGenerateRequest['systemInstruction']): ChatMessage[] {
  const texts = (instruction?.parts ?? []).map((part, position) => {
    const text = answerText(part);
    if (text === undefined) throw fieldError(`systemInstruction.parts[${position}]`, 'a system instruction may carry only text parts');
    return text;
  });
  const text = texts.filter((entry) => entry !== '').join('\n');
  return text === '' ? [] : [{ role: 'system', content: text }];
}

/**
 * The chat messages of a native request: `systemInstruction` as a system message, `model`
 * turns as assistant messages, `user` (and `function`) turns as tool and user messages.
 * Thought parts and `thoughtSignature`s are left out: chat completions have no field for
 * earlier reasoning, and the family on the other side never saw those signatures.
 * @throws a 400 naming the native field for a role, part or function response chat
 *   completions cannot carry.
 */
export function toChatMessages(request: NativeGenerateRequest): ChatMessage[] {
  const messages = systemMessage(request.systemInstruction);
  const calls = new NativeFunctionCalls();
  request.contents.forEach((content, index) => {
    const role = content.role ?? 'user';
    if (role === 'model') messages.push(...modelTurn(content.parts, index, calls));
    else if (role === 'user' || role === 'function') messages.push(...userTurn(content.parts, index, calls));
    else throw fieldError(`contents[${index}].role`, 'expected "user" or "model"');
  });
  if (messages.every((message) => message.role === 'system')) {
    throw fieldError('contents', 'expected at least one part with text, media, a function call or a function response');
  }
  return messages;
}
