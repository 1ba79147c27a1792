/** The image types wn models take (spec part 2, wn2.7 media limits: JPEG/JPG/PNG/BMP/WEBP). */
export const wnImageTypes = ['image/jpeg', 'image/png', 'image/bmp', 'image/webp'] as const;

/** The image type of `bytes` from its magic number, or undefined when it is none of {@link wnImageTypes}. */
export function sniffWnImageType(bytes: Uint8Array): (typeof wnImageTypes)[number] | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 14 && ascii(0, 2) === 'BM') return 'image/bmp';
  return undefined;
}
