import { fieldError, formatFieldPath, GatewayError, type ProviderHost, type VendorFetchedUrl } from '../../core/index.js';
import { classifyQiImage, type QiImageInput } from './qi-image-reference.js';
import { qiImageMimeTypes } from './qi-image-types.js';

/** How input images are prepared for the upstream. */
export interface ResolveQiImagesOptions {
  /** The channel's `fetch_input_urls`: download URLs through the media guard instead of passing them on. */
  fetchUrls: boolean;
  signal: AbortSignal;
}

/**
 * The input images as the upstream gets them, in the order given. An http(s) URL goes as it
 * is, for DashScope fetches it itself (upstreams.md §4.3), unless the channel fetches URLs;
 * such a URL must still pass the gateway's address policy (`MediaFetcher.checkVendorFetchedUrls`).
 * Inline data, and fetched URLs, go through `host.media.fetch` (size cap, PNG, JPEG or WebP
 * only; URLs through the SSRF guard) and out as a `data:<type>;base64,` URI. A refusal is a
 * 400 naming the field.
 */
export async function resolveQiImages(host: ProviderHost, inputs: readonly QiImageInput[], options: ResolveQiImagesOptions): Promise<string[]> {
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
  // A URL the upstream fetches gets the gateway's address policy too, before the upstream is called.
  await host.media.checkVendorFetchedUrls(passedOn, options.signal);
  return resolved;
}
