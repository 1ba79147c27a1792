import { GatewayError, invalidRequest, readDataUriBase64, type ChatMessage, type FetchedMedia } from '../../../core/index.js';
import { gxAllowedMimeTypes, mimeTypeFromFileName, normalizeGxMimeType } from './gx-media-types.js';
import { splitMarkdownImages } from './split-markdown-images.js';

/** One content part of a client message, as the chat schema types it. */
export type ChatContentPart = Extract<NonNullable<ChatMessage['content']>, unknown[]>[number];

/** A native request part: `{text}`, `{inlineData}`, `{functionCall}`, `{functionResponse}`, plus flags. */
export type GxRequestPart = Record<string, unknown>;

/** Media the caller fetched before translating, by the URL the client gave. */
export type FetchedMediaMap = ReadonlyMap<string, FetchedMedia>;

const isRemote = (source: string): boolean => /^https?:\/\//i.test(source);

/** The URL or data URI a media part points at, and where in the request it sits. */
export interface MediaSource {
  source: string;
  /** The field path for error messages, e.g. `messages[1].content[0].image_url.url`. */
  field: string;
}

/**
 * Where a non-text part's media comes from, or undefined for a part that needs no media
 * (text) or has none a download could supply (raw base64 audio, `file_id`).
 */
export function mediaSourceOfPart(part: ChatContentPart, field: string): MediaSource | undefined {
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

/** True for a source the caller must download before translating. */
export function isRemoteMedia(source: string): boolean {
  return isRemote(source);
}

function inlineData(mimeType: string, base64: string, field: string): GxRequestPart {
  const normalized = normalizeGxMimeType(mimeType);
  if (normalized === undefined) {
    throw invalidRequest(`${field}: the MIME type "${mimeType}" is not supported for gx models; send one of ${gxAllowedMimeTypes.join(', ')}`, {
      param: field,
    });
  }
  return { inlineData: { mimeType: normalized, data: base64 } };
}

/** Inline data for a data URI (decoded here) or an http(s) URL (from the caller's fetched media). */
export function resolveGxMedia(source: string, field: string, media: FetchedMediaMap): GxRequestPart {
  if (source.startsWith('data:')) {
    const payload = readDataUriBase64(source);
    if (payload === undefined) throw invalidRequest(`${field}: not a valid data URI; expected data:<mime type>;base64,<data>`, { param: field });
    return inlineData(payload.mimeType, payload.base64, field);
  }
  if (!isRemote(source)) throw invalidRequest(`${field}: expected an http(s) URL or a data URI`, { param: field });
  const fetched = media.get(source);
  if (fetched === undefined) {
    // The caller fetches every URL collectMediaReferences lists; a miss is a gateway bug.
    throw new GatewayError(500, 'internal_error', `${field}: the media at this URL was not fetched before translation`, { param: field });
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

/**
 * The native parts for one client content part (spec part 1: text; image_url, input_audio
 * and file become inline data; markdown images in text become inline images).
 */
export function toGxContentParts(part: ChatContentPart, field: string, media: FetchedMediaMap, remoteImages: boolean): GxRequestPart[] {
  switch (part.type) {
    case 'text':
      if (part.text === undefined) throw invalidRequest(`${field}.text: required for a text part`, { param: `${field}.text` });
      return textToGxParts(part.text, `${field}.text`, media, remoteImages);
    case 'image_url':
    case 'input_audio':
    case 'file':
      return [toGxMediaPart(part, field, media)];
    default:
      throw invalidRequest(`${field}.type: unsupported content part type "${part.type}"; use text, image_url, input_audio or file`, {
        param: `${field}.type`,
      });
  }
}

function toGxMediaPart(part: ChatContentPart, field: string, media: FetchedMediaMap): GxRequestPart {
  const located = mediaSourceOfPart(part, field);
  if (located !== undefined) return resolveGxMedia(located.source, located.field, media);
  if (part.type === 'input_audio' && part.input_audio !== undefined) {
    // OpenAI's shape: raw base64 plus a format such as wav or mp3.
    return inlineData(`audio/${part.input_audio.format.toLowerCase()}`, part.input_audio.data, `${field}.input_audio.format`);
  }
  if (part.type === 'file' && part.file !== undefined) {
    if (part.file.file_data !== undefined) {
      const mimeType = part.file.filename === undefined ? undefined : mimeTypeFromFileName(part.file.filename);
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
