import type { MediaFormat, MediaKind } from './media-format.js';

// The media extensions wn knows: a URL ending in one of another kind is refused.
const mediaExtensions = [
  ...['jpg', 'jpeg', 'png', 'bmp', 'webp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico'],
  ...['wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'opus', 'wma', 'amr'],
  ...['mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'wmv', 'm4v', '3gp', 'mpeg', 'mpg'],
];

const othersThan = (accepted: readonly string[]) => new Set(mediaExtensions.filter((extension) => !accepted.includes(extension)));

/** What wn takes for each kind of media (spec part 2, media limits: images JPEG/JPG/PNG/BMP/WEBP, audio WAV/MP3, video MP4/MOV). */
export const wnMediaFormats = {
  image: {
    kind: 'image',
    extensions: ['jpg', 'jpeg', 'png', 'bmp', 'webp'],
    refusedExtensions: othersThan(['jpg', 'jpeg', 'png', 'bmp', 'webp']),
    inline: { types: ['image/jpeg', 'image/png', 'image/bmp', 'image/webp'], names: 'JPEG, PNG, BMP or WebP' },
  },
  audio: { kind: 'audio', extensions: ['wav', 'mp3'], refusedExtensions: othersThan(['wav', 'mp3']) },
  video: { kind: 'video', extensions: ['mp4', 'mov'], refusedExtensions: othersThan(['mp4', 'mov']) },
} as const satisfies Record<MediaKind, MediaFormat>;
