import { GatewayError, type ProviderHost } from '../../core/index.js';
import { qiImageMimeTypes } from './qi-image-types.js';

// The guard's own messages speak to a client about its URL; here the URL is the upstream's.
const reasons: Record<string, string> = {
  media_url_not_allowed: "the image's URL points to a private or otherwise non-public address on a host other than the channel's base_url, which security.media does not allow (add the host to security.media.allow_hosts to trust it)",
  media_too_large: 'the image is larger than security.media.max_bytes',
  media_fetch_timeout: 'the download took longer than security.media.timeout_ms',
};

/**
 * 502 `image_conversion_failed` (the images dialect answers 503 `bad_response`): the upstream
 * made the image but the gateway cannot fetch it. Not retryable: another channel would
 * generate again, at the operator's cost, and most likely meet the same guard.
 */
function conversionFailed(error: unknown): GatewayError {
  const reason = GatewayError.is(error) ? (reasons[error.code] ?? error.message) : String(error);
  return new GatewayError(
    502,
    'image_conversion_failed',
    `the upstream made the image, but the gateway could not download it to return it as b64_json: ${reason}; ask for response_format "url" to get its link instead`,
    { cause: error },
  );
}

/**
 * The images as `{b64_json}` entries, in order, for `response_format: b64_json` (spec part 2:
 * "b64 is converted from the URL"). Each URL is fetched through `host.media.fetch`, the SSRF
 * guard, accepting PNG, JPEG or WebP only; a URL on the channel's own host passes whatever
 * its address (an upstream run on a private network serves its results from there).
 */
export async function downloadQiImages(host: ProviderHost, urls: readonly string[], signal: AbortSignal, channelBaseUrl: string): Promise<Array<{ b64_json: string }>> {
  return Promise.all(
    urls.map(async (url) => {
      try {
        const media = await host.media.fetch(url, { allowedMimeTypes: qiImageMimeTypes, signal, channelBaseUrl });
        return { b64_json: media.data.toString('base64') };
      } catch (error) {
        if (signal.aborted) throw error;
        throw conversionFailed(error);
      }
    }),
  );
}
