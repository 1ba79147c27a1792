/** The payload of a `data:` URI, in the base64 form inline data travels in. */
export interface DataUriPayload {
  /** The MIME type as written, parameters removed; `text/plain` when the URI names none (RFC 2397). */
  mimeType: string;
  base64: string;
}

/**
 * Reads `data:[<mime>][;param=value]*[;base64],<data>`. Percent-encoded (non-base64) data
 * is decoded and re-encoded as base64. Returns undefined for anything that is not a
 * well-formed data URI.
 */
export function parseDataUri(uri: string): DataUriPayload | undefined {
  if (!uri.startsWith('data:')) return undefined;
  const comma = uri.indexOf(',');
  if (comma === -1) return undefined;
  const header = uri.slice(5, comma).split(';');
  const mimeType = (header[0] ?? '').trim().toLowerCase() || 'text/plain';
  const isBase64 = header.slice(1).some((parameter) => parameter.trim().toLowerCase() === 'base64');
  const data = uri.slice(comma + 1);
  if (isBase64) {
    const base64 = data.replace(/\s+/g, '');
    return /^[A-Za-z0-9+/_-]*={0,2}$/.test(base64) && base64.length % 4 !== 1 ? { mimeType, base64 } : undefined;
  }
  try {
    return { mimeType, base64: Buffer.from(decodeURIComponent(data), 'utf8').toString('base64') };
  } catch {
    return undefined;
  }
}
