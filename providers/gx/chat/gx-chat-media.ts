import { internalError, invalidRequest, type ChatCompletionRequest, type ChatMessage, type FetchedMedia } from '../../../core/index.js';
import { ownEntry, readDataUriBase64 } from '../../../core/kit/index.js';

/** One content part of a client message, as the chat schema types it. */
export type ChatContentPart = Extract<NonNullable<ChatMessage['content']>, unknown[]>[number];

/** A native request part: `{text}`, `{inlineData}`, `{functionCall}`, `{functionResponse}`, plus flags. */
export type GxRequestPart = Record<string, unknown>;

/** Media the caller fetched before translating, by the URL the client gave. */
export type FetchedMediaMap = ReadonlyMap<string, FetchedMedia>;

/**
 * The MIME types the chat endpoint accepts as inline media for gx models (spec part 1,
 * "POST /v1/chat/completions"), lower case. Pass it to `MediaFetcher.fetch` as
 * `allowedMimeTypes` so a refused download fails before its bytes are read.
 */
export const gxAllowedMimeTypes: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/heic',
  'image/heif',
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'video/mp4',
  'video/mov',
  'video/mpeg',
  'video/mpg',
  'video/avi',
  'video/wmv',
  'video/mpegps',
  'video/flv',
  'application/pdf',
  'text/plain',
];

const allowed = new Set(gxAllowedMimeTypes);

const extensionMimeTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/mov',
  mpeg: 'video/mpeg',
  mpg: 'video/mpg',
  avi: 'video/avi',
  wmv: 'video/wmv',
  flv: 'video/flv',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

const isRemote = (source: string): boolean => /^https?:\/\//i.test(source);

/** A run of text, or a markdown image `![alt](source)`, in the order they appear. */
type MarkdownSegment = { kind: 'text'; text: string } | { kind: 'image'; source: string };

// Bounded alt text, and sources that cannot contain `[` or `]`, so every match attempt stops
// at the next `![`: the scan stays linear even on a hostile 30 MB message.
const dataImage = /!\[[^[\]\n]{0,512}\]\(\s*(data:[^\s()[\]]+)\s*\)/g;
const dataOrRemoteImage = /!\[[^[\]\n]{0,512}\]\(\s*(data:[^\s()[\]]+|https?:\/\/[^\s()[\]]+)\s*\)/g;

/**
 * Splits text at markdown images whose source is a data URI, or also an http(s) URL when
 * `includeRemote` is set. The text around the images is kept, the text after the last one
 * too (the reference gateway drops it, reference-gateway.md §4.6, losing what the client
 * wrote). Empty runs are left out.
 */
function splitMarkdownImages(text: string, includeRemote: boolean): MarkdownSegment[] {
  if (!text.includes('![')) return text === '' ? [] : [{ kind: 'text', text }];
  const segments: MarkdownSegment[] = [];
  let position = 0;
  for (const match of text.matchAll(includeRemote ? dataOrRemoteImage : dataImage)) {
    const before = text.slice(position, match.index);
    if (before !== '') segments.push({ kind: 'text', text: before });
    segments.push({ kind: 'image', source: match[1] ?? '' });
    position = match.index + match[0].length;
  }
  const rest = text.slice(position);
  if (rest !== '') segments.push({ kind: 'text', text: rest });
  return segments;
}

/** The URL or data URI a media part points at, and where in the request it sits (`messages[1].content[0].image_url.url`). */
export interface MediaSource {
  source: string;
  field: string;
}

/**
 * Where a non-text part's media comes from, or undefined for a part that needs no media
 * (text) or has none a download could supply (raw base64 audio, `file_id`).
 */
function mediaSourceOfPart(part: ChatContentPart, field: string): MediaSource | undefined {
  if (part.type === 'image_url' && part.image_url !== undefined) {
    return typeof part.image_url === 'string'
      ? { source: part.image_url, field: `${field}.image_url` }
      : { source: part.image_url.url, field: `${field}.image_url.url` };
  }
  if (part.type === 'input_audio' && part.input_audio !== undefined) {
    const data = part.input_audio.data;
    return isRemote(data) || data.startsWith('data:') ? { source: data, field: `${field}.input_audio.data` } : undefined;
  }
  if (part.type === 'file' && part.file !== undefined) {
    const fileData = part.file.file_data;
    if (fileData !== undefined && (isRemote(fileData) || fileData.startsWith('data:'))) return { source: fileData, field: `${field}.file.file_data` };
    if (part.file.url !== undefined) return { source: part.file.url, field: `${field}.file.url` };
  }
  return undefined;
}

/**
 * Every http(s) URL the request's media parts (image_url, input_audio, file) and the
 * markdown images in user messages point at, once each, in order, with the field that first
 * gave it (or the text a markdown image sits in) for the `param` of a refusal. The caller
 * fetches them (through the host's SSRF-guarded fetcher, with `gxAllowedMimeTypes`) before
 * translating; data URIs are decoded there and need no fetch.
 */
export function collectMediaReferences(request: ChatCompletionRequest): MediaSource[] {
  const references = new Map<string, MediaSource>();
  const add = (source: string, field: string) => {
    if (isRemote(source) && !references.has(source)) references.set(source, { source, field });
  };
  const addMarkdownImages = (text: string, field: string) => {
    for (const segment of splitMarkdownImages(text, true)) if (segment.kind === 'image') add(segment.source, field);
  };
  request.messages.forEach((message, index) => {
    const content = message.content;
    if ((message.role !== 'user' && message.role !== 'assistant') || content === undefined || content === null) return;
    if (typeof content === 'string') {
      if (message.role === 'user') addMarkdownImages(content, `messages[${index}].content`);
      return;
    }
    content.forEach((part, partIndex) => {
      const field = `messages[${index}].content[${partIndex}]`;
      if (part.type === 'text') {
        if (message.role === 'user' && part.text !== undefined) addMarkdownImages(part.text, `${field}.text`);
        return;
      }
      const located = mediaSourceOfPart(part, field);
      if (located !== undefined) add(located.source, located.field);
    });
  });
  return [...references.values()];
}

/**
 * Inline data with the MIME type as the upstream gets it: parameters (`; charset=utf-8`) and
 * case dropped, `image/jpg` (accepted from clients) sent as the registered `image/jpeg`.
 * @throws GatewayError 400 naming `field` for a type outside the spec's allowlist.
 */
function inlineData(mimeType: string, base64: string, field: string): GxRequestPart {
  const bare = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  if (!allowed.has(bare)) {
    throw invalidRequest(`${field}: the MIME type "${mimeType}" is not supported for gx models; send one of ${gxAllowedMimeTypes.join(', ')}`, {
      param: field,
    });
  }
  return { inlineData: { mimeType: bare === 'image/jpg' ? 'image/jpeg' : bare, data: base64 } };
}

/** Inline data for a data URI (decoded here) or an http(s) URL (from the caller's fetched media). */
function resolveGxMedia(source: string, field: string, media: FetchedMediaMap): GxRequestPart {
  if (source.startsWith('data:')) {
    const payload = readDataUriBase64(source);
    if (payload === undefined) throw invalidRequest(`${field}: not a valid data URI; expected data:<mime type>;base64,<data>`, { param: field });
    return inlineData(payload.mimeType, payload.base64, field);
  }
  if (!isRemote(source)) throw invalidRequest(`${field}: expected an http(s) URL or a data URI`, { param: field });
  const fetched = media.get(source);
  if (fetched === undefined) {
    // The caller fetches every URL collectMediaReferences lists; a miss is a gateway bug.
    throw internalError(new Error(`${field}: the media at this URL was not fetched before translation`));
  }
  return inlineData(fetched.mimeType, fetched.data.toString('base64'), field);
}

/**
 * Native parts for text: the text itself, split at markdown images that become inline
 * image parts (data URIs always; http(s) URLs only when `remoteImages` is set).
 */
export function textToGxParts(text: string, field: string, media: FetchedMediaMap, remoteImages: boolean): GxRequestPart[] {
  return splitMarkdownImages(text, remoteImages).map((segment) =>
    segment.kind === 'text' ? { text: segment.text } : resolveGxMedia(segment.source, field, media),
  );
}

/** The inline data of an `image_url`, `input_audio` or `file` part. */
export function toGxMediaPart(part: ChatContentPart, field: string, media: FetchedMediaMap): GxRequestPart {
  const located = mediaSourceOfPart(part, field);
  if (located !== undefined) return resolveGxMedia(located.source, located.field, media);
  if (part.type === 'input_audio' && part.input_audio !== undefined) {
    // OpenAI's shape: raw base64 plus a format such as wav or mp3.
    return inlineData(`audio/${part.input_audio.format.toLowerCase()}`, part.input_audio.data, `${field}.input_audio.format`);
  }
  if (part.type === 'file' && part.file !== undefined) {
    if (part.file.file_data !== undefined) {
      const filename = part.file.filename;
      const extension = filename === undefined || !filename.includes('.') ? undefined : filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
      const mimeType = extension === undefined ? undefined : ownEntry(extensionMimeTypes, extension);
      if (mimeType === undefined) {
        throw invalidRequest(`${field}.file: send file_data as a data URI, or give a filename whose extension names an allowed type (.pdf, .txt, ...)`, {
          param: `${field}.file.filename`,
        });
      }
      return inlineData(mimeType, part.file.file_data, `${field}.file.filename`);
    }
    if (part.file.file_id !== undefined) {
      throw invalidRequest(`${field}.file.file_id: uploaded file ids are not supported for gx models; send file_data or url`, {
        param: `${field}.file.file_id`,
      });
    }
  }
  throw invalidRequest(`${field}.${part.type}: required for a ${part.type} part`, { param: `${field}.${part.type}` });
}
