/**
 * The image types gpt-image takes as input (OpenAI's edit endpoint: png, webp or jpg), lower
 * case.
 */
export const giImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** {@link giImageMimeTypes} plus `image/jpg`, which some hosts send for JPEG; pass it to `MediaFetcher.fetch`. */
export const giFetchedMimeTypes: readonly string[] = [...giImageMimeTypes, 'image/jpg'];

/** `image/jpg` as the registered `image/jpeg`; other types unchanged. */
export const normalizeGiImageType = (mimeType: string): string => (mimeType === 'image/jpg' ? 'image/jpeg' : mimeType);

const extensions: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The type the first bytes reveal, among {@link giImageMimeTypes}. */
function sniffGiImageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/**
 * The type an uploaded file is sent upstream as: what its bytes show, else what the client
 * declared (`image/jpg` read as `image/jpeg`), or undefined when neither is an accepted type.
 * The bytes come first because clients often declare `application/octet-stream`.
 */
export function giUploadType(bytes: Uint8Array, declared: string): string | undefined {
  const sniffed = sniffGiImageType(bytes);
  if (sniffed !== undefined) return sniffed;
  const bare = (declared.split(';')[0] ?? '').trim().toLowerCase();
  const normalized = normalizeGiImageType(bare);
  return giImageMimeTypes.includes(normalized) ? normalized : undefined;
}

/** The file extension for an accepted type, for the file names of fetched images. */
export const giImageExtension = (mimeType: string): string => extensions[mimeType] ?? 'png';
