/** The image types the upstream takes as `input_reference` (png, jpeg, webp), lower case. */
export const srImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** {@link srImageMimeTypes} plus `image/jpg`, which some hosts send for JPEG; for `MediaFetcher.fetch`, which refuses other types from the headers. */
export const srFetchedMimeTypes: readonly string[] = [...srImageMimeTypes, 'image/jpg'];

const extensions: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/**
 * The accepted image type the first bytes reveal, or undefined. The bytes decide, never a
 * declared type: clients send `application/octet-stream`, and a data: URI may say `image/png`
 * over JPEG bytes. Twelve bytes are enough (WebP's `RIFF....WEBP`).
 */
export function sniffSrImageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** The file extension of an accepted type, for the name of the uploaded file. */
export const srImageExtension = (mimeType: string): string => extensions[mimeType] ?? 'png';
