import type { MediaFormat } from './media-format.js';

/** What hx takes as an image (spec part 2: JPEG/JPG/PNG/WEBP up to 20 MB). */
export const hxImageFormat: MediaFormat = {
  kind: 'image',
  extensions: ['jpg', 'jpeg', 'png', 'webp'],
  refusedExtensions: new Set(['bmp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico', 'wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'm4v']),
  inline: { types: ['image/jpeg', 'image/png', 'image/webp'], names: 'JPEG, PNG or WebP' },
};
