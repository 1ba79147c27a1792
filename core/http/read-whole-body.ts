import { upstreamResponseTooLarge } from '../errors/error-codes.js';

/** 64 MiB: the `max_response_mb` of a channel whose config and plugin name none. */
export const defaultMaxResponseBytes = 64 * 1024 * 1024;

/**
 * Reads an upstream body whole as UTF-8 text (a byte order mark dropped), holding at most
 * `maxBytes` of it: a body that grows past that is abandoned at once (`abandon` destroys it,
 * which drops the upstream connection rather than draining it), so a broken or hostile
 * upstream can make the gateway hold no more than the limit, whether it declared a length or not.
 * @throws GatewayError 502 `upstream_response_too_large` (retryable) past the limit.
 */
export async function readWholeBody(chunks: AsyncIterator<Uint8Array>, maxBytes: number, abandon: () => Promise<unknown>): Promise<string> {
  const held: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await abandon().catch(() => {});
      throw upstreamResponseTooLarge(maxBytes);
    }
    held.push(next.value);
  }
  const bytes = Buffer.concat(held, size);
  const start = size >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}
