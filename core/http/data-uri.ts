import type { FetchedMedia } from '../contracts/provider/media-fetcher.js';
import { invalidMediaUrl, mediaTooLarge } from './media-errors.js';
import { mimeTypeFromContentType, sniffMimeType } from './media-type.js';

const base64Alphabet = /^[A-Za-z0-9+/_-]*={0,2}$/;
const whitespace = /[\t\n\f\r ]+/g;

/** True when `url` is a `data:` URI (scheme case-insensitive). */
export function isDataUri(url: string): boolean {
  return url.slice(0, 5).toLowerCase() === 'data:';
}

const hexValue = (byte: number) => {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/** Percent-decodes to bytes, as the URL standard does: `%XX` is a byte, anything else is kept. */
function percentDecode(text: string): Buffer {
  const input = Buffer.from(text, 'utf8');
  if (!input.includes(0x25)) return input;
  const output = Buffer.allocUnsafe(input.length);
  let length = 0;
  for (let index = 0; index < input.length; index++) {
    const byte = input[index] as number;
    const high = byte === 0x25 && index + 2 < input.length ? hexValue(input[index + 1] as number) : -1;
    const low = high < 0 ? -1 : hexValue(input[index + 2] as number);
    if (low < 0) {
      output[length++] = byte;
    } else {
      output[length++] = high * 16 + low;
      index += 2;
    }
  }
  return output.subarray(0, length);
}

/** The parts of a `data:[<mime type>][;<parameter>...][;base64],<data>` URI, undefined when it is not one. */
function splitDataUri(uri: string): { declared: string; isBase64: boolean; payload: string } | undefined {
  const comma = uri.indexOf(',');
  if (!isDataUri(uri) || comma < 0) return undefined;
  const parameters = uri.slice(5, comma).split(';');
  return {
    declared: parameters[0]?.trim().toLowerCase() ?? '',
    isBase64: parameters.length > 1 && parameters.at(-1)?.trim().toLowerCase() === 'base64',
    payload: uri.slice(comma + 1),
  };
}

/** A base64 payload, percent-decoded and without white space; undefined when it is not base64. */
function base64Payload(payload: string): string | undefined {
  const encoded = (payload.includes('%') ? percentDecode(payload).toString('latin1') : payload).replace(whitespace, '');
  return base64Alphabet.test(encoded) && encoded.length % 4 !== 1 ? encoded : undefined;
}

/**
 * Decodes a `data:[<mime type>][;<parameter>...][;base64],<data>` URI (RFC 2397), base64 or
 * percent-encoded, without any fetch. The MIME type comes from the URI, lower-cased and
 * without parameters; when the URI has none (or only `application/octet-stream`), from the
 * bytes, else `text/plain`. Throws 400
 * `invalid_media_url` for a malformed URI and `media_too_large` past `maxBytes`.
 */
export function decodeDataUri(uri: string, maxBytes: number): FetchedMedia {
  const parts = splitDataUri(uri);
  if (parts === undefined) throw invalidMediaUrl('the data: URI is malformed (expected data:<mime type>;base64,<data>)');
  let data: Buffer;
  if (parts.isBase64) {
    const encoded = base64Payload(parts.payload);
    if (encoded === undefined) throw invalidMediaUrl('the data: URI does not hold valid base64 data');
    // Checked before decoding, so an oversized URI is refused without allocating its bytes.
    if (Math.floor((encoded.replace(/=+$/, '').length * 3) / 4) > maxBytes) throw mediaTooLarge(maxBytes);
    data = Buffer.from(encoded, 'base64');
  } else {
    data = percentDecode(parts.payload);
    if (data.length > maxBytes) throw mediaTooLarge(maxBytes);
  }
  const declared = parts.declared;
  const mimeType = mimeTypeFromContentType(declared) ?? sniffMimeType(data) ?? (declared.includes('/') ? declared : 'text/plain');
  return { mimeType, data };
}

/** A `data:` URI's payload in base64, the form inline data travels in upstream. */
export interface DataUriPayload {
  /** The MIME type as written, lower-cased and without parameters; `text/plain` when the URI names none (RFC 2397). */
  mimeType: string;
  base64: string;
}

/**
 * Reads a `data:` URI as base64 without decoding it: for a provider that sends inline data
 * on as base64, where decoding and encoding again would only cost time. Percent-encoded data
 * is decoded and encoded as base64. Undefined for anything that is not a well-formed data
 * URI; no size limit (the client body's limit holds it).
 */
export function readDataUriBase64(uri: string): DataUriPayload | undefined {
  const parts = splitDataUri(uri);
  if (parts === undefined) return undefined;
  const mimeType = parts.declared === '' ? 'text/plain' : parts.declared;
  if (!parts.isBase64) return { mimeType, base64: percentDecode(parts.payload).toString('base64') };
  const base64 = base64Payload(parts.payload);
  return base64 === undefined ? undefined : { mimeType, base64 };
}
