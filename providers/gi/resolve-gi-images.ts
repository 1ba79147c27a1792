import { GatewayError, imageUploadFile, invalidRequest, quoted, type ProviderHost, type UploadFile } from '../../core/index.js';
import { giFetchedMimeTypes, giUploadType, normalizeGiImageType } from './gi-image-types.js';
import type { GiImageSource } from './read-gi-request.js';

/** gpt-image takes input images up to 50 MB each; the gateway's own `security.media.max_bytes` still caps it. */
const largestImageBytes = 50 * 1024 * 1024;

/**
 * The bytes of one request image: an uploaded file as it came (its type checked), or a URL or
 * data: URI fetched through the SSRF guard. A refused fetch is the guard's 400 with the
 * field's name in front, so the client knows which image to fix.
 */
export async function resolveGiImage(host: ProviderHost, source: GiImageSource, name: string, signal: AbortSignal): Promise<UploadFile> {
  if ('upload' in source) {
    const { upload } = source;
    const mimeType = giUploadType(upload.data, upload.mimeType);
    if (mimeType === undefined) {
      throw invalidRequest(`${source.field}: the file ${quoted(upload.filename)} is not a png, jpeg or webp image; send one of those`, { param: source.field });
    }
    return imageUploadFile(upload.data, mimeType, name, upload.filename);
  }
  try {
    const media = await host.media.fetch(source.url, { allowedMimeTypes: giFetchedMimeTypes, maxBytes: largestImageBytes, signal });
    return imageUploadFile(media.data, normalizeGiImageType(media.mimeType), name);
  } catch (error) {
    if (GatewayError.is(error) && error.statusCode === 400) throw invalidRequest(`${source.field}: ${error.message}`, { param: source.field, cause: error });
    throw error;
  }
}
