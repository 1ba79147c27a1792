import { checkImageBytes, fetchableImageTypes, fetchImage, type MediaFetcher } from '../../core/index.js';
import { voFrameFormats, type VoFrameSource } from './read-vo-frame.js';
import type { VoInlineImage } from './to-vo-request.js';

const fetchableTypes = fetchableImageTypes(voFrameFormats);

/**
 * Reads one frame into the inline bytes the upstream takes: a file as it came, a URL through
 * the media guard (SSRF checks, size and time caps), a data: URI decoded by the same fetcher.
 * The MIME type sent is the one the bytes show, whatever the URL or its headers claimed.
 * @throws GatewayError 400 naming the field for a frame that cannot be read, is refused by the
 *   guard, is too large, or is not a png, jpeg or webp image.
 */
export async function fetchVoFrame(source: VoFrameSource, media: MediaFetcher, signal: AbortSignal): Promise<VoInlineImage> {
  const frame =
    source.kind === 'upload'
      ? { mimeType: checkImageBytes(source.data, source.field, voFrameFormats), data: source.data }
      : await fetchImage(media, source.url, source.field, voFrameFormats, { allowedMimeTypes: fetchableTypes, signal });
  return { bytesBase64Encoded: frame.data.toString('base64'), mimeType: frame.mimeType };
}
