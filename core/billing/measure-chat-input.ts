import { findInlineMedia } from './find-inline-media.js';
import { inlineMediaTokens } from './inline-media-tokens.js';

/** The size of a chat-like input: its text as JSON, and its inline media by rule. */
export interface ChatInputSize {
  /** UTF-8 bytes of the input's JSON with every inline payload written as `""`: the whole JSON when there is none. */
  textBytes: number;
  /** Input tokens of the inline media, by the rules of `inline-media-tokens.ts`. */
  mediaTokens: number;
}

/**
 * Measures a chat-like input (see {@link findInlineMedia} for its shapes) for the usage
 * estimate. Without inline media, the common case, this is one `JSON.stringify` as before.
 * With it, the payloads are left out of the JSON by a replacer, so megabytes of base64 are
 * neither copied nor counted as text.
 */
export function measureChatInput(input: unknown): ChatInputSize {
  const media = findInlineMedia(input);
  if (media === undefined) return { textBytes: Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8'), mediaTokens: 0 };
  const payloads = new Map<object, string>();
  let mediaTokens = 0;
  for (const found of media) {
    payloads.set(found.owner, found.field);
    mediaTokens += inlineMediaTokens(found.kind, found.bytes);
  }
  const json = JSON.stringify(input, function (this: object, field: string, value: unknown) {
    return payloads.get(this) === field ? '' : value;
  });
  return { textBytes: Buffer.byteLength(json ?? '', 'utf8'), mediaTokens };
}
