import { ownEntry } from '../../core/validation/value-shapes.js';

/** The upload types the transcription and translation endpoints accept, by file extension (reference/upstreams.md §2.6). */
export const audioExtensions = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'] as const;
/** One of {@link audioExtensions}. */
export type AudioExtension = (typeof audioExtensions)[number];

/** The media type each extension is read as, when the part's own header names another format or none. */
const mediaTypeOfExtension: Record<AudioExtension, string> = {
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  mp4: 'audio/mp4',
  mpeg: 'audio/mpeg',
  mpga: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  webm: 'audio/webm',
};

/** The extension a part's media type stands for, for a file name without one. Browsers and SDKs spell some of these several ways. */
const extensionOfMediaType: Record<string, AudioExtension> = {
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpga': 'mpga',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'video/mp4': 'mp4',
  'video/mpeg': 'mpeg',
  'audio/ogg': 'ogg',
  'application/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/webm': 'webm',
  'video/webm': 'webm',
};

/** What the gateway makes of an uploaded file's name and media type. */
export interface AudioFileType {
  /** The name to send upstream: the client's, with the extension added when it had none (the upstream decides by it). */
  filename: string;
  mediaType: string;
}

const bareMediaType = (mediaType: string): string => mediaType.split(';')[0]!.trim().toLowerCase();

/**
 * The type of an upload, decided by the file name's extension, or by the part's media type
 * when the name has no extension. Undefined when that is not one of {@link audioExtensions}.
 * The part's media type is kept when it names the same format as the extension (it is the
 * more precise hint for reading the duration); otherwise the extension's own type is used.
 */
export function audioFileType(filename: string, partMediaType: string): AudioFileType | undefined {
  const extension = /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase();
  const fromHeader = ownEntry(extensionOfMediaType, bareMediaType(partMediaType));
  if (extension === undefined) {
    if (fromHeader === undefined) return undefined;
    return { filename: `${filename === '' ? 'audio' : filename}.${fromHeader}`, mediaType: bareMediaType(partMediaType) };
  }
  if (!(audioExtensions as readonly string[]).includes(extension)) return undefined;
  const known = extension as AudioExtension;
  const sameFormat = fromHeader !== undefined && mediaTypeOfExtension[fromHeader] === mediaTypeOfExtension[known];
  return { filename, mediaType: sameFormat ? bareMediaType(partMediaType) : mediaTypeOfExtension[known] };
}
