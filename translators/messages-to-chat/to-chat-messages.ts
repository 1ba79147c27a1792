import { invalidRequest, type ChatMessage, type MessagesContentBlock, type MessagesMessage, type MessagesRequest } from '../../core/index.js';
import { chatReasoningDetails, type ChatSignature } from '../shared/chat-answer.js';

type ChatContentPart = Exclude<NonNullable<ChatMessage['content']>, string>[number];
type ChatToolCall = NonNullable<ChatMessage['tool_calls']>[number];
type Block<Type extends MessagesContentBlock['type']> = Extract<MessagesContentBlock, { type: Type }>;

const textPart = (text: string): ChatContentPart => ({ type: 'text', text });

/** An image block as a chat `image_url` part: base64 as a data URI, a URL as it is. */
function imagePart(block: Block<'image'>): ChatContentPart {
  const source = block.source;
  if (source.type === 'base64') return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
  // The schema refuses Files API sources; this keeps the type total.
  throw invalidRequest('image source: the Files API is not served by this gateway', { param: 'source.type' });
}

/**
 * A document block as chat parts: its title and context as text (what the model is told about
 * it), then the document itself: a PDF as a chat `file` part (a data URI, or `file.url` for a
 * PDF by URL, which chat families that fetch files read), plain text as a text part, and a
 * content source as its own text and image blocks.
 */
function documentParts(block: Block<'document'>): ChatContentPart[] {
  const parts: ChatContentPart[] = [];
  if (block.title !== undefined && block.title !== null && block.title !== '') parts.push(textPart(block.title));
  if (block.context !== undefined && block.context !== null && block.context !== '') parts.push(textPart(block.context));
  const source = block.source;
  switch (source.type) {
    case 'base64':
      // OpenAI's chat format wants a file name beside inline file data; the document has none of its own.
      parts.push({ type: 'file', file: { file_data: `data:${source.media_type};base64,${source.data}`, filename: 'document.pdf' } });
      break;
    case 'url':
      parts.push({ type: 'file', file: { url: source.url } });
      break;
    case 'text':
      parts.push(textPart(source.data));
      break;
    case 'content':
      if (typeof source.content === 'string') parts.push(textPart(source.content));
      else for (const inner of source.content) parts.push(inner.type === 'text' ? textPart(inner.text) : imagePart(inner));
      break;
    case 'file':
      throw invalidRequest('document source: the Files API is not served by this gateway', { param: 'source.type' });
  }
  return parts;
}

/**
 * A tool result as the text of a chat `tool` message, and the media it carried. Chat tool
 * messages hold text only, so images and documents a tool returned go to the user message
 * that follows. A result marked `is_error` is sent as `{"error": <text>}`: the shape
 * function-calling models read a failed call in (gx's documented `functionResponse`
 * convention, and plain JSON for the others).
 */
function toolResultMessage(block: Block<'tool_result'>): { message: ChatMessage; media: ChatContentPart[] } {
  const texts: string[] = [];
  const media: ChatContentPart[] = [];
  const content = block.content ?? '';
  if (typeof content === 'string') texts.push(content);
  else {
    for (const inner of content) {
      if (inner.type === 'text') texts.push(inner.text);
      else if (inner.type === 'image') media.push(imagePart(inner));
      else media.push(...documentParts(inner));
    }
  }
  const text = texts.join('\n');
  return { message: { role: 'tool', tool_call_id: block.tool_use_id, content: block.is_error === true ? JSON.stringify({ error: text }) : text }, media };
}

const toolCall = (block: Block<'tool_use'>): ChatToolCall => ({
  id: block.id,
  type: 'function',
  function: { name: block.name, arguments: JSON.stringify(block.input) },
});

/** Chat content for text parts: one part as a plain string (what every chat family reads), several as parts. */
function chatContent(parts: ChatContentPart[]): ChatMessage['content'] {
  if (parts.length === 1 && parts[0]?.type === 'text') return parts[0].text ?? '';
  return parts;
}

const refuse = (field: string, why: string) => invalidRequest(`${field}: ${why}`, { param: field });

/** A user message: its tool results as chat `tool` messages first (chat wants them right after the call), then the rest. */
function userMessages(blocks: readonly MessagesContentBlock[], field: string): ChatMessage[] {
  const toolMessages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  const carried: ChatContentPart[] = [];
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        parts.push(textPart(block.text));
        return;
      case 'image':
        parts.push(imagePart(block));
        return;
      case 'document':
        parts.push(...documentParts(block));
        return;
      case 'tool_result': {
        const { message, media } = toolResultMessage(block);
        toolMessages.push(message);
        carried.push(...media);
        return;
      }
      default:
        throw refuse(`${field}[${index}]`, `a ${block.type} block belongs in an assistant message`);
    }
  });
  const content = [...carried, ...parts];
  return content.length === 0 ? toolMessages : [...toolMessages, { role: 'user', content: chatContent(content) }];
}

/**
 * An assistant message: text blocks as its content, tool_use blocks as `tool_calls` (ids
 * kept, so the results that answer them still match), thinking blocks as `reasoning_content`,
 * and their signatures as the chat `reasoning_details` a signing family (gx) reads back: a
 * thinking block's signature belongs to the tool_use right after it (thinking blocks between
 * them aside), else to the message's text, which is where the answer put it
 * (`fromChatCompletion`, the stream translation). Redacted thinking is left out: it is
 * Anthropic's own, and no chat family reads it.
 */
function assistantMessage(blocks: readonly MessagesContentBlock[], field: string): ChatMessage[] {
  const parts: ChatContentPart[] = [];
  const toolCalls: ChatToolCall[] = [];
  const thoughts: string[] = [];
  const signatures: ChatSignature[] = [];
  /** The signature of the last thinking block, until the block it belongs to comes. */
  let pending: string | undefined;
  const settle = (id: string | undefined) => {
    if (pending !== undefined) signatures.push({ data: pending, id });
    pending = undefined;
  };
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        settle(undefined);
        parts.push(textPart(block.text));
        return;
      case 'tool_use':
        settle(block.id);
        toolCalls.push(toolCall(block));
        return;
      case 'thinking':
        thoughts.push(block.thinking);
        if (block.signature === '') return;
        // Two signed blocks in a row: the first has no block of its own to sign, so it is the text's.
        settle(undefined);
        pending = block.signature;
        return;
      case 'redacted_thinking':
        return;
      default:
        throw refuse(`${field}[${index}]`, `an assistant message carries text, thinking and tool_use blocks, not ${block.type}`);
    }
  });
  settle(undefined);
  if (parts.length === 0 && toolCalls.length === 0 && thoughts.length === 0) return [];
  const message: ChatMessage = { role: 'assistant', content: parts.length === 0 ? (toolCalls.length > 0 ? null : '') : chatContent(parts) };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thoughts.length > 0) message.reasoning_content = thoughts.join('');
  if (signatures.length > 0) message.reasoning_details = chatReasoningDetails(signatures);
  return [message];
}

/** Text blocks only (a system prompt), as chat content. */
function systemContent(content: string | readonly MessagesContentBlock[], field: string): ChatMessage['content'] {
  if (typeof content === 'string') return content;
  return chatContent(
    content.map((block, index) => {
      if (block.type !== 'text') throw refuse(`${field}[${index}]`, `a system message carries text blocks only, not ${block.type}`);
      return textPart(block.text);
    }),
  );
}

function toChatMessagesOf(message: MessagesMessage, field: string): ChatMessage[] {
  if (message.role === 'system') return [{ role: 'system', content: systemContent(message.content, `${field}.content`) }];
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  return message.role === 'user' ? userMessages(message.content, `${field}.content`) : assistantMessage(message.content, `${field}.content`);
}

/**
 * The conversation as chat messages: `system` (a string, or text blocks whose
 * `cache_control` breakpoints are dropped) as the first system message, then each message in
 * order. Cache breakpoints and text citations sent back are left out everywhere: chat has no
 * place for them, and they change nothing the model reads.
 * @throws GatewayError 400 naming the block, for a block its message's role cannot carry.
 */
export function toChatMessages(request: Pick<MessagesRequest, 'system' | 'messages'>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const system = request.system;
  if (system !== undefined && (typeof system === 'string' ? system !== '' : system.length > 0)) {
    messages.push({ role: 'system', content: systemContent(system, 'system') });
  }
  request.messages.forEach((message, index) => messages.push(...toChatMessagesOf(message, `messages[${index}]`)));
  return messages;
}
