import { sniffImageType } from '../../core/index.js';

/**
 * The image types gpt-image takes as input (OpenAI's edit endpoint: png, webp or jpg), lower
 * case.
 */
export const giImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** {@link giImageMimeTypes} plus `image/jpg`, which some hosts send for JPEG; pass it to `MediaFetcher.fetch`. */
export const giFetchedMimeTypes: readonly string[] = [...giImageMimeTypes, 'image/jpg'];

/** `image/jpg` as the registered `image/jpeg`; other types unchanged. */
export const normalizeGiImageType = (mimeType: string): string => (mimeType === 'image/jpg' ? 'image/jpeg' : mimeType);

/**
 * The type an uploaded file is sent upstream as: what its bytes show, else what the client
 * declared (`image/jpg` read as `image/jpeg`), or undefined when neither is an accepted type.
 * The bytes come first because clients often declare `application/octet-stream`.
 */
export function giUploadType(bytes: Uint8Array, declared: string): string | undefined {
  const sniffed = sniffImageType(bytes, giImageMimeTypes);
  if (sniffed !== undefined) return sniffed;
  const bare = (declared.split(';')[0] ?? '').trim().toLowerCase();
  const normalized = normalizeGiImageType(bare);
  return giImageMimeTypes.includes(normalized) ? normalized : undefined;
}
