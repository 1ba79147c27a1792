/** What a media reference holds. */
export type MediaKind = 'image' | 'audio' | 'video';

/** The image types a family takes inline, read from the bytes, and their names for a refusal. */
export interface InlineImageTypes {
  types: readonly string[];
  /** `JPEG, PNG or WebP`. */
  names: string;
}

/** What a family takes for one kind of media (spec part 2, media limits). */
export type MediaFormat = {
  /** The extensions accepted, named in the refusal of another. */
  extensions: readonly string[];
  /**
   * Extensions of other media formats: a URL ending in one is refused. Only these are: a
   * URL ending in .php may well serve an image, and signed links often have no extension.
   */
  refusedExtensions: ReadonlySet<string>;
} & ({ kind: 'image'; inline: InlineImageTypes } | { kind: 'audio' | 'video' });

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

/** What hx takes as an image (spec part 2: JPEG/JPG/PNG/WEBP up to 20 MB). */
export const hxImageFormat: MediaFormat = {
  kind: 'image',
  extensions: ['jpg', 'jpeg', 'png', 'webp'],
  refusedExtensions: new Set(['bmp', 'gif', 'tif', 'tiff', 'heic', 'heif', 'avif', 'svg', 'ico', 'wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'mp4', 'mov', 'avi', 'mkv', 'webm', 'flv', 'm4v']),
  inline: { types: ['image/jpeg', 'image/png', 'image/webp'], names: 'JPEG, PNG or WebP' },
};
