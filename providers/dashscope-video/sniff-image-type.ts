/** An image type recognised by its magic number. */
export type SniffedImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/bmp';

/** The image type of `bytes` from its magic number: JPEG, PNG, WebP or BMP; undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): SniffedImageType | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 14 && ascii(0, 2) === 'BM') return 'image/bmp';
  return undefined;
}
