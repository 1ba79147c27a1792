import { ascii, startsWith } from './byte-signatures.js';

const readBrand = (bytes: Uint8Array, offset: number): string => String.fromCharCode(...bytes.subarray(offset, offset + 4));

// ISO-BMFF brands of HEIF files (ISO/IEC 23008-12): HEVC-coded ones are image/heic, the
// codec-neutral ones image/heif.
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const heifBrands = new Set(['mif1', 'msf1']);

/** The brands of an ISO-BMFF `ftyp` box at the start of `bytes`: major brand first, then the compatible ones. */
function ftypBrands(bytes: Uint8Array): string[] {
  if (!startsWith(bytes, ascii('ftyp'), 4) || bytes.length < 12) return [];
  const boxSize = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, bytes.length);
  const brands = [readBrand(bytes, 8)];
  // After the major brand comes a 4-byte minor version, then compatible brands to the box's end.
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(readBrand(bytes, offset));
  return brands;
}

function imageTypeOf(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  // A BMP file header alone is 14 bytes; two letters are too weak a sign on a shorter text.
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 14) return 'image/bmp';
  const brands = ftypBrands(bytes);
  // AVIF files list mif1 among their compatible brands too, so the major brand decides first.
  if (brands[0] === 'avif' || brands[0] === 'avis') return 'image/avif';
  if (brands.some((brand) => heicBrands.has(brand))) return 'image/heic';
  if (brands.some((brand) => heifBrands.has(brand))) return 'image/heif';
  return undefined;
}

/**
 * The image type the first bytes of `bytes` show, from their magic numbers: png, jpeg, webp,
 * gif, tiff, bmp, avif, heic or heif. With `among`, only a type in that list is answered, so
 * a provider names the formats its upstream takes and gets undefined for any other. The bytes
 * decide, never a declared type: clients send `application/octet-stream`, and a data: URI may
 * say `image/png` over JPEG bytes. Sixteen bytes tell every type but heic and heif, whose
 * brands may sit further into the `ftyp` box.
 */
export function sniffImageType(bytes: Uint8Array, among?: readonly string[]): string | undefined {
  const type = imageTypeOf(bytes);
  return type === undefined || among === undefined || among.includes(type) ? type : undefined;
}
