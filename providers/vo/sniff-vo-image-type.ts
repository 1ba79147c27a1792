const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** The frame formats the family takes for `image` and `lastFrame`, as their bytes show them. */
export const voFrameTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** Bytes enough for every signature {@link sniffVoImageType} reads. */
export const voSniffBytes = 12;

/**
 * The image type the first bytes show: png, jpeg and webp, plus gif so a refusal can name
 * it. Undefined for anything else.
 */
export function sniffVoImageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  return undefined;
}
