import { inlineMediaKindOf, type InlineMediaKind } from './inline-media-tokens.js';
import { ownEntry } from '../validation/value-shapes.js';

/** One inline payload of a request: the string at `owner[field]`, what it holds and how many bytes it decodes to. */
export interface InlineMedia {
  owner: object;
  field: string;
  kind: InlineMediaKind;
  bytes: number;
}

type Fields = Record<string, unknown>;

const objectOf = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;

const isRemote = (value: string): boolean => value.startsWith('http://') || value.startsWith('https://');

const fileNameKinds: Record<string, InlineMediaKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  gif: 'image',
  heic: 'image',
  heif: 'image',
  mp3: 'audio',
  wav: 'audio',
  flac: 'audio',
  ogg: 'audio',
  m4a: 'audio',
  pdf: 'pdf',
};

function kindOfFileName(fileName: unknown): InlineMediaKind {
  if (typeof fileName !== 'string') return 'file';
  const dot = fileName.lastIndexOf('.');
  return (dot === -1 ? undefined : ownEntry(fileNameKinds, fileName.slice(dot + 1).toLowerCase())) ?? 'file';
}

/** The bytes the base64 in `value` from index `start` on decodes to (line breaks in it would count: an upper bound). */
function base64DecodedBytes(value: string, start = 0): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor(((value.length - start) * 3) / 4) - padding);
}

/** `owner[field]` as `data:[<mime>][;param]*[;base64],<data>` (RFC 2397), read from its header only. */
function dataUri(owner: Fields, field: string, fallback: InlineMediaKind): InlineMedia | undefined {
  const value = owner[field];
  if (typeof value !== 'string' || !value.startsWith('data:')) return undefined;
  const comma = value.indexOf(',');
  if (comma === -1) return undefined;
  const header = value.slice(5, comma);
  const semicolon = header.indexOf(';');
  // Percent-encoded data decodes to at most its own length; gx sends it on as inline data too.
  const bytes = header.toLowerCase().endsWith(';base64') ? base64DecodedBytes(value, comma + 1) : value.length - comma - 1;
  return { owner, field, kind: inlineMediaKindOf(semicolon === -1 ? header : header.slice(0, semicolon), fallback), bytes };
}

/** `owner[field]` as bare base64 (not a URL, which counts as text by its length). */
function base64(owner: Fields, field: string, kind: InlineMediaKind): InlineMedia | undefined {
  const value = owner[field];
  return typeof value === 'string' && !isRemote(value) ? { owner, field, kind, bytes: base64DecodedBytes(value) } : undefined;
}

/**
 * The inline payload of one content part, if it has one. Chat: `image_url` (`{url}` or a
 * string) and `file.url` as data URIs, `input_audio.data` and `file.file_data` as data URIs
 * or bare base64. Responses: `input_image.image_url` and `input_file.file_url` as data URIs,
 * `input_file.file_data` either way. Messages: an image or document block's base64
 * `source.data`. Native (no `type`): `inlineData.data`.
 */
function partMedia(part: Fields): InlineMedia | undefined {
  switch (part.type) {
    case 'image_url': {
      const imageUrl = objectOf(part.image_url);
      return imageUrl === undefined ? dataUri(part, 'image_url', 'image') : dataUri(imageUrl, 'url', 'image');
    }
    case 'input_image':
      return dataUri(part, 'image_url', 'image');
    case 'input_audio': {
      const audio = objectOf(part.input_audio);
      return audio === undefined ? undefined : (dataUri(audio, 'data', 'audio') ?? base64(audio, 'data', 'audio'));
    }
    case 'file': {
      const file = objectOf(part.file);
      if (file === undefined) return undefined;
      const kind = kindOfFileName(file.filename);
      return dataUri(file, 'file_data', kind) ?? base64(file, 'file_data', kind) ?? dataUri(file, 'url', kind);
    }
    case 'input_file': {
      const kind = kindOfFileName(part.filename);
      return dataUri(part, 'file_data', kind) ?? base64(part, 'file_data', kind) ?? dataUri(part, 'file_url', kind);
    }
    case 'image':
    case 'document': {
      // Messages: `{type: "image" | "document", source: {type: "base64", media_type, data}}`.
      const source = objectOf(part.source);
      if (source?.type !== 'base64') return undefined;
      return base64(source, 'data', typeof source.media_type === 'string' ? inlineMediaKindOf(source.media_type, 'file') : 'file');
    }
    case undefined: {
      const inline = objectOf(part.inlineData ?? part.inline_data);
      const mimeType = inline?.mimeType ?? inline?.mime_type;
      return inline === undefined ? undefined : base64(inline, 'data', typeof mimeType === 'string' ? inlineMediaKindOf(mimeType, 'file') : 'file');
    }
    default:
      return undefined;
  }
}

// Each scan returns `found` with what it adds, allocated on the first find: text-only input, the
// common case, allocates nothing.
type Found = InlineMedia[] | undefined;

/** The parts of a gx function response or a Messages tool result, which may carry parts of their own (images a tool returned). */
function functionResponsePartsOf(part: Fields): unknown {
  if (part.type === 'tool_result') return part.content;
  return part.type === undefined ? objectOf(part.functionResponse ?? part.function_response)?.parts : undefined;
}

function scanPart(part: Fields, found: Found): Found {
  // Text parts (chat `text`, Responses `input_text`, native `{text}`) hold no media: one check.
  if (typeof part.text === 'string') return found;
  const media = partMedia(part);
  if (media !== undefined) (found ??= []).push(media);
  return scanParts(functionResponsePartsOf(part), found);
}

/**
 * The media of `parts` and of the function responses nested in them, in order. A loop with
 * its own stack: a client may nest function responses as deeply as its body allows, and
 * recursion would let that depth reach the call stack.
 */
function scanParts(parts: unknown, found: Found): Found {
  if (!Array.isArray(parts)) return found;
  // Allocated only when a function response nests parts: plain content needs no stack.
  let pending: Array<{ items: unknown[]; next: number }> | undefined;
  let current = { items: parts as unknown[], next: 0 };
  for (;;) {
    if (current.next >= current.items.length) {
      const resumed = pending?.pop();
      if (resumed === undefined) return found;
      current = resumed;
      continue;
    }
    const part = objectOf(current.items[current.next]);
    current.next += 1;
    if (part === undefined || typeof part.text === 'string') continue;
    const media = partMedia(part);
    if (media !== undefined) (found ??= []).push(media);
    const nested = functionResponsePartsOf(part);
    if (Array.isArray(nested)) {
      (pending ??= []).push(current);
      current = { items: nested, next: 0 };
    }
  }
}

/** Chat messages, Responses input items or native contents: each has parts, or is one (a bare Responses part). */
function scanTurns(turns: unknown, found: Found): Found {
  if (!Array.isArray(turns)) return found;
  for (const item of turns) {
    const turn = objectOf(item);
    // Text content, the common case, is settled by one check.
    if (turn === undefined || typeof turn.content === 'string') continue;
    if (Array.isArray(turn.content)) found = scanParts(turn.content, found);
    else if (Array.isArray(turn.parts)) found = scanParts(turn.parts, found);
    else if (Array.isArray(turn.output)) found = scanParts(turn.output, found);
    else found = scanPart(turn, found);
  }
  return found;
}

/**
 * The inline payloads of a chat-like input, where the wire formats put them: in the content
 * parts of chat and Messages `messages` (tool results included), of Responses `input`
 * (message content, function call output, bare parts) and of native `contents` and
 * `systemInstruction`. `input` is the messages array, or `{instructions, input}`, or
 * `{systemInstruction, contents}`. Reads no payload: only the
 * first characters of a data URI. Media elsewhere (a data URI inside text) stays text.
 * Undefined when there is none.
 */
export function findInlineMedia(input: unknown): InlineMedia[] | undefined {
  if (Array.isArray(input)) return scanTurns(input, undefined);
  const fields = objectOf(input);
  if (fields === undefined) return undefined;
  const found = scanTurns(fields.contents, scanTurns(fields.input, undefined));
  return scanParts(objectOf(fields.systemInstruction)?.parts, found);
}
