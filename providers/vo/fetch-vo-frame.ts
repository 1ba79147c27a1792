import { GatewayError, invalidRequest, type FetchedMedia, type MediaFetcher } from '../../core/index.js';
import { assertVoFrameBytes, type VoFrameField, type VoFrameSource } from './read-vo-frame.js';
import type { VoInlineImage } from './to-vo-request.js';
import { voFrameTypes } from './vo-frame-types.js';

// Passed to the media fetcher so a URL whose Content-Type already names another format is
// refused before its body is read. Octet-stream is let through: the bytes decide then.
const fetchableTypes: readonly string[] = [...voFrameTypes, 'image/jpg', 'application/octet-stream'];

/** A media error with the field it is about in front, so the client knows which frame to fix. */
function aboutField(error: unknown, field: VoFrameField): unknown {
  if (!GatewayError.is(error) || error.statusCode !== 400) return error;
  if (error.code === 'unsupported_media_type') {
    return invalidRequest(`${field}: the image is not png, jpeg or webp; convert it to one of them`, { param: field, cause: error });
  }
  return new GatewayError(400, error.code, `${field}: ${error.message}`, { param: field, cause: error, headers: error.headers });
}

/**
 * Reads one frame into the inline bytes the upstream takes: a file as it came, a URL through
 * the media guard (SSRF checks, size and time caps), a data: URI decoded by the same fetcher.
 * The MIME type sent is the one the bytes show, whatever the URL or its headers claimed.
 * @throws GatewayError 400 naming the field for a frame that cannot be read, is refused by the
 *   guard, is too large, or is not a png, jpeg or webp image.
 */
export async function fetchVoFrame(source: VoFrameSource, media: MediaFetcher, signal: AbortSignal): Promise<VoInlineImage> {
  let data: Buffer;
  if (source.kind === 'upload') {
    data = source.data;
  } else {
    let fetched: FetchedMedia;
    try {
      fetched = await media.fetch(source.url, { allowedMimeTypes: fetchableTypes, signal });
    } catch (error) {
      throw aboutField(error, source.field);
    }
    data = fetched.data;
  }
  const mimeType = assertVoFrameBytes(data, source.field);
  return { bytesBase64Encoded: data.toString('base64'), mimeType };
}
