import { GatewayError, invalidRequest, type ProviderHost } from '../../core/index.js';
import { imageUploadFile, quoted, type UploadFile } from '../../core/kit/index.js';
import { openAiFetchedImageTypes, openAiImageTypes, sniffOpenAiImageType } from '../shared/openai-compatible/openai-image-inputs.js';
import type { GiImageFiles, GiImageSource, PreparedGiRequest } from './read-gi-request.js';

/** gpt-image takes input images up to 50 MB each; the gateway's own `security.media.max_bytes` still caps it. */
const largestImageBytes = 50 * 1024 * 1024;

/** `image/jpg` as the registered `image/jpeg`; other types unchanged. */
const normalizeGiImageType = (mimeType: string): string => (mimeType === 'image/jpg' ? 'image/jpeg' : mimeType);

/**
 * The type an uploaded file is sent upstream as: what its bytes show, else what the client
 * declared (`image/jpg` read as `image/jpeg`), or undefined when neither is an accepted type.
 * The bytes come first because clients often declare `application/octet-stream`.
 */
function giUploadType(bytes: Uint8Array, declared: string): string | undefined {
  const sniffed = sniffOpenAiImageType(bytes);
  if (sniffed !== undefined) return sniffed;
  const normalized = normalizeGiImageType((declared.split(';')[0] ?? '').trim().toLowerCase());
  return openAiImageTypes.includes(normalized) ? normalized : undefined;
}

/**
 * The bytes of one request image: an uploaded file as it came (its type checked), or a URL or
 * data: URI fetched through the SSRF guard. A refused fetch is the guard's 400 with the
 * field's name in front, so the client knows which image to fix.
 */
async function resolveGiImage(host: ProviderHost, source: GiImageSource, name: string, signal: AbortSignal): Promise<UploadFile> {
  if ('upload' in source) {
    const { upload } = source;
    const mimeType = giUploadType(upload.data, upload.mimeType);
    if (mimeType === undefined) {
      throw invalidRequest(`${source.field}: the file ${quoted(upload.filename)} is not a png, jpeg or webp image; send one of those`, { param: source.field });
    }
    return imageUploadFile(upload.data, mimeType, name, upload.filename);
  }
  try {
    const media = await host.media.fetch(source.url, { allowedMimeTypes: openAiFetchedImageTypes, maxBytes: largestImageBytes, signal });
    return imageUploadFile(media.data, normalizeGiImageType(media.mimeType), name);
  } catch (error) {
    if (GatewayError.is(error) && error.statusCode === 400) throw invalidRequest(`${source.field}: ${error.message}`, { param: source.field, cause: error });
    throw error;
  }
}

/** A request's reference images and mask as files, named `image-1`… and `mask`. */
export async function resolveGiImages(host: ProviderHost, request: PreparedGiRequest, signal: AbortSignal): Promise<GiImageFiles> {
  const references: UploadFile[] = [];
  // One at a time: each fetch is capped by the gateway, and 16 parallel downloads of 20 MB would not be.
  for (const [index, source] of request.references.entries()) references.push(await resolveGiImage(host, source, `image-${index + 1}`, signal));
  const mask = request.mask === undefined ? undefined : await resolveGiImage(host, request.mask, 'mask', signal);
  return { references, mask };
}
