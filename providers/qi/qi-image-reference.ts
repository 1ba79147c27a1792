import { GatewayError, type ProviderHost, type VendorFetchedUrl } from '../../core/index.js';
import { fieldError, formatFieldPath, isBase64Text, sniffBase64ImageType, type FieldPath } from '../../core/kit/index.js';

/** The image types Q-style models take as input and return, lower case. */
export const qiImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** An input image as the client gave it, with where it was given. */
export interface QiImageInput {
  value: string;
  path: FieldPath;
}

/**
 * Classifies an input image without any I/O: an http(s) URL is kept as given; a `data:` URI
 * is kept for the media guard to decode and check; raw base64 becomes a data: URI typed from
 * its magic bytes (DashScope takes base64 only as a data URI, upstreams.md §4.3). Anything
 * else, or base64 that is not PNG, JPEG or WebP, is a 400 naming the field.
 */
export function classifyQiImage(input: QiImageInput): { kind: 'url'; url: string } | { kind: 'data'; uri: string } {
  const value = input.value.trim();
  if (value === '') throw fieldError(input.path, 'must not be empty; send an http(s) URL, a data: URI or base64 image data');
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch (error) {
      throw fieldError(input.path, 'is not a valid URL', error);
    }
    return { kind: 'url', url: value };
  }
  if (/^data:/i.test(value)) return { kind: 'data', uri: value };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (scheme !== null) throw fieldError(input.path, `${scheme[1]}: URLs are not supported; send an http(s) URL, a data: URI or base64 image data`);
  const base64 = value.replace(/\s+/g, '');
  if (!isBase64Text(base64)) throw fieldError(input.path, 'expected an http(s) URL, a data: URI or base64 image data');
  const mimeType = sniffBase64ImageType(base64, qiImageMimeTypes);
  if (mimeType === undefined) throw fieldError(input.path, 'is neither an http(s) URL nor a data: URI, and as base64 it is not a PNG, JPEG or WebP image');
  return { kind: 'data', uri: `data:${mimeType};base64,${base64}` };
}

/**
 * The input images as the upstream gets them, in the order given. An http(s) URL goes as it
 * is, for DashScope fetches it itself (upstreams.md §4.3), unless the channel fetches URLs
 * (`fetchUrls`, its `fetch_input_urls`); such a URL must still pass the gateway's address
 * policy (`MediaFetcher.checkVendorFetchedUrls`), before the upstream is called. Inline data,
 * and fetched URLs, go through `host.media.fetch` (size cap, PNG, JPEG or WebP only; URLs
 * through the SSRF guard) and out as a `data:<type>;base64,` URI. A refusal is a 400 naming
 * the field.
 */
export async function resolveQiImages(host: ProviderHost, inputs: readonly QiImageInput[], options: { fetchUrls: boolean; signal: AbortSignal }) {
  const resolved: string[] = [];
  const passedOn: VendorFetchedUrl[] = [];
  for (const input of inputs) {
    const reference = classifyQiImage(input);
    if (reference.kind === 'url' && !options.fetchUrls) {
      resolved.push(reference.url);
      passedOn.push({ url: reference.url, field: formatFieldPath(input.path) });
      continue;
    }
    try {
      const media = await host.media.fetch(reference.kind === 'url' ? reference.url : reference.uri, { allowedMimeTypes: qiImageMimeTypes, signal: options.signal });
      resolved.push(`data:${media.mimeType};base64,${media.data.toString('base64')}`);
    } catch (error) {
      if (options.signal.aborted || !GatewayError.is(error) || error.statusCode !== 400) throw error;
      throw fieldError(input.path, error.message, error);
    }
  }
  await host.media.checkVendorFetchedUrls(passedOn, options.signal);
  return resolved;
}
