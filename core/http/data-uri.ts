import type { FetchedMedia } from '../contracts/provider-plugin.js';
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

/**
 * Decodes a `data:[<mime type>][;<parameter>...][;base64],<data>` URI (RFC 2397), base64 or
 * percent-encoded, without any fetch. The MIME type comes from the URI, lower-cased and
 * without parameters; when the URI has none (or only `application/octet-stream`), from the
 * bytes, else `text/plain`. Throws 400
 * `invalid_media_url` for a malformed URI and `media_too_large` past `maxBytes`.
 */
export function decodeDataUri(uri: string, maxBytes: number): FetchedMedia {
  const comma = uri.indexOf(',');
  if (!isDataUri(uri) || comma < 0) throw invalidMediaUrl('the data: URI is malformed (expected data:<mime type>;base64,<data>)');
  const parameters = uri.slice(5, comma).split(';');
  const isBase64 = parameters.length > 1 && parameters.at(-1)?.trim().toLowerCase() === 'base64';
  const payload = uri.slice(comma + 1);
  let data: Buffer;
  if (isBase64) {
    const encoded = (payload.includes('%') ? percentDecode(payload).toString('latin1') : payload).replace(whitespace, '');
    if (!base64Alphabet.test(encoded) || encoded.length % 4 === 1) throw invalidMediaUrl('the data: URI does not hold valid base64 data');
    // Checked before decoding, so an oversized URI is refused without allocating its bytes.
    if (Math.floor((encoded.replace(/=+$/, '').length * 3) / 4) > maxBytes) throw mediaTooLarge(maxBytes);
    data = Buffer.from(encoded, 'base64');
  } else {
    data = percentDecode(payload);
    if (data.length > maxBytes) throw mediaTooLarge(maxBytes);
  }
  const declared = parameters[0]?.trim().toLowerCase() ?? '';
  const mimeType = mimeTypeFromContentType(declared) ?? sniffMimeType(data) ?? (declared.includes('/') ? declared : 'text/plain');
  return { mimeType, data };
}
